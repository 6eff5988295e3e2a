import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import Type from "typebox";
import { errorFacts } from "@gatehouse/errors";
import type { Wired } from "../../deps.ts";
import { confirmationPage } from "../../hosted/index.ts";
import { CONFIRM_PATH, CONFIRMED_PATH } from "../../hosted/paths.ts";
import { sendContent, sendError } from "../../http/envelope.ts";
import { userToJson } from "../../http/user-json.ts";
import { requireBearer } from "../../http/bearer-guard.ts";
import { userToken } from "../../http/user-token.ts";
import { errorResponses, ScQuery } from "../../schemas/common.ts";
import { UserContent } from "../../schemas/user.ts";

const ConfirmByCode = Type.Object(
  {
    objectType: Type.Literal("confirmation"),
    id: Type.Union([Type.Literal("email"), Type.Literal("phone_number")]),
    code: Type.String({ pattern: "^[0-9]{6}$" }),
  },
  { additionalProperties: false, $id: "ConfirmByCode" },
);

/**
 * GET {base_url}/activityid/v1/user/confirm?token=: the link of the
 * confirmation email. It confirms and redirects (302) to the whitelisted
 * context.url the users service returns, else to the hosted confirmed page.
 */
export const confirmRoutes: FastifyPluginAsyncTypebox<Wired<"users">> = async (app, deps) => {
  app.get(
    CONFIRM_PATH,
    {
      schema: {
        summary: "Confirm an identifier by the emailed link",
        tags: ["users"],
        querystring: Type.Object(
          { token: Type.String({ minLength: 1, maxLength: 200 }) },
          { additionalProperties: true },
        ),
        response: errorResponses(400, 429),
      },
    },
    async (req, reply) => {
      try {
        const res = await deps.users.confirmIdentifier({ linkToken: req.query.token });
        return reply
          .header("cache-control", "no-store")
          .redirect(res.redirectUrl || `${deps.config.publicBaseUrl}${CONFIRMED_PATH}`, 302);
      } catch (err) {
        const f = errorFacts(err);
        if (f.reason === "INVALID_CODE") return confirmationPage(reply, req.locale, false);
        if (f.reason === "RATE_LIMITED") return sendError(reply, "RATE_LIMITED");
        throw err;
      }
    },
  );

  // POST {base_url}/activityid/v1/user/confirm: the logged user confirms an identifier by its code.
  app.post(
    CONFIRM_PATH,
    {
      onRequest: requireBearer(deps.verifyAccessToken, userToken),
      schema: {
        summary: "Confirm an identifier by code (the user's access token)",
        tags: ["users"],
        security: [{ bearer: [] }],
        querystring: ScQuery,
        body: ConfirmByCode,
        response: { 200: UserContent, ...errorResponses(400, 401, 429) },
      },
    },
    async (req, reply) => {
      const principal = req.principal!;
      try {
        const res = await deps.users.confirmIdentifier({
          userId: principal.subject,
          key: req.body.id,
          code: req.body.code,
        });
        return sendContent(reply, 200, { user: userToJson(res.user!) });
      } catch (err) {
        if (errorFacts(err).reason === "INVALID_CODE") {
          return sendError(reply, "INVALID_CODE", { violations: [{ field: "code", code: "invalid_value" }] });
        }
        throw err;
      }
    },
  );

  app.get(
    CONFIRMED_PATH,
    { schema: { summary: "Hosted page shown after a confirmation", tags: ["users"] } },
    async (req, reply) => confirmationPage(reply, req.locale, true),
  );
};
