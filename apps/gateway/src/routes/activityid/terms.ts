import type { FastifyPluginAsync } from "fastify";
import type { Wired } from "../../deps.ts";
import { termsPages } from "../../hosted/index.ts";
import { TERMS_PATH } from "../../hosted/paths.ts";
import { formBody } from "../../plugins/edge/index.ts";

/**
 * GET {base_url}/activityid/v1/user/terms?token=: the hosted page of a 451
 * login answer (`content.url`); POST the same path (the form, with the
 * token) records the answers (hosted/terms).
 */
export const termsRoutes: FastifyPluginAsync<Wired<"users">> = async (app, deps) => {
  await app.register(formBody, { bodyLimit: 64 * 1024 });
  const pages = termsPages(deps.users, deps.config.publicBaseUrl);
  app.get(
    TERMS_PATH,
    {
      exposeHeadRoute: false,
      schema: { summary: "Hosted terms page (the 451 login answer's content.url)", tags: ["users"] },
    },
    (req, reply) => pages.show(req, reply),
  );
  app.post(TERMS_PATH, { schema: { summary: "Answers of the hosted terms page", tags: ["users"] } }, (req, reply) =>
    pages.submit(req, reply),
  );
};
