import formbody from "@fastify/formbody";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import Type from "typebox";
import type { Wired } from "../../deps.ts";
import { resendPages } from "../../hosted/index.ts";
import { RESEND_PATH } from "../../hosted/paths.ts";

/**
 * GET {base_url}/activityid/v1/user/confirm/resend?token=: sends a new
 * confirmation code and link (earlier ones stay valid) and answers a hosted
 * page: 200 sent (also when there is nothing left to confirm: no information
 * leak), 429 + Retry-After over the resend limit (the login's counter),
 * 400 invalid or expired token, 502 when the delivery could not be queued.
 * When the token's application has `captcha: "altcha"` the GET shows a form
 * with the ALTCHA widget instead, and POST of that form sends (section 17).
 */
export const resendRoute: FastifyPluginAsyncTypebox<Wired<"users">> = async (app, deps) => {
  await app.register(formbody, { bodyLimit: 16 * 1024 });
  const pages = resendPages(deps.users, deps.altcha, deps.config.publicBaseUrl);
  app.get(
    RESEND_PATH,
    {
      // A HEAD (link preview, prefetch) must not send messages.
      exposeHeadRoute: false,
      schema: {
        summary: "Send the confirmation code again (the 412 login answer's content.url)",
        tags: ["users"],
        querystring: Type.Object(
          { token: Type.Optional(Type.String({ maxLength: 1000 })) },
          { additionalProperties: true },
        ),
      },
    },
    (req, reply) => pages.show(req, reply, req.query.token ?? ""),
  );
  app.post(
    RESEND_PATH,
    { schema: { summary: "The resend form with its ALTCHA solution (captcha altcha)", tags: ["users"] } },
    (req, reply) => pages.submit(req, reply),
  );
};
