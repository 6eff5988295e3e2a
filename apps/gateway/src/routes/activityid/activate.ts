import formbody from "@fastify/formbody";
import type { FastifyPluginAsync } from "fastify";
import type { Wired } from "../../deps.ts";
import { activationPages } from "../../hosted/index.ts";
import { ACTIVATE_PATH } from "../../hosted/paths.ts";

/**
 * GET {base_url}/activityid/v1/user/activate?token=: the link of an assisted
 * registration's activation message (contract section 8), a page to choose
 * the password; POST the same path (the form, with the token) activates the
 * account (hosted/activation).
 */
export const activateRoutes: FastifyPluginAsync<Wired<"users">> = async (app, deps) => {
  await app.register(formbody, { bodyLimit: 16 * 1024 });
  const pages = activationPages(deps.users, deps.registry, deps.config.publicBaseUrl);
  app.get(
    ACTIVATE_PATH,
    { exposeHeadRoute: false, schema: { summary: "Hosted activation page (assisted registration)", tags: ["users"] } },
    (req, reply) => pages.show(req, reply),
  );
  app.post(
    ACTIVATE_PATH,
    { schema: { summary: "Activate an account: set its password (assisted registration)", tags: ["users"] } },
    (req, reply) => pages.submit(req, reply),
  );
};
