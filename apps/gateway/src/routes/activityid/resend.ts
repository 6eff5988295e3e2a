import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import Type from "typebox";
import { errorFacts } from "@gatehouse/errors";
import type { Wired } from "../../deps.ts";
import { resendPage } from "../../hosted/index.ts";
import { RESEND_PATH } from "../../hosted/paths.ts";

/**
 * GET {base_url}/activityid/v1/user/confirm/resend?token=: sends a new
 * confirmation code and link (earlier ones stay valid) and answers a hosted
 * page: 200 sent (also when there is nothing left to confirm: no information
 * leak), 429 + Retry-After over the resend limit (the login's counter),
 * 400 invalid or expired token, 502 when the delivery could not be queued.
 */
export const resendRoute: FastifyPluginAsyncTypebox<Wired<"users">> = async (app, deps) => {
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
    async (req, reply) => {
      const token = req.query.token ?? "";
      if (!token) return resendPage(reply, req.locale, "invalid");
      try {
        await deps.users.resendConfirmation({
          caller: { locale: req.locale, clientAddress: req.ip },
          resendToken: token,
        });
        return resendPage(reply, req.locale, "sent");
      } catch (err) {
        const f = errorFacts(err);
        if (f.reason === "INVALID_CODE") return resendPage(reply, req.locale, "invalid");
        if (f.reason === "RATE_LIMITED") {
          if (f.metadata.retry_after) reply.header("retry-after", f.metadata.retry_after);
          return resendPage(reply, req.locale, "limited");
        }
        if (f.reason === "CONFIRMATION_NOT_QUEUED") return resendPage(reply, req.locale, "failed");
        throw err;
      }
    },
  );
};
