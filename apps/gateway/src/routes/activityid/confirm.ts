import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import Type from "typebox";
import { errorFacts } from "@gatehouse/errors";
import type { GatewayDeps } from "../../deps.ts";
import { renderMessage } from "../../hosted/kit/render.ts";
import { sendPage } from "../../hosted/kit/send.ts";
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

const CONFIRMED_PATH = "/activityid/v1/user/confirmed";

/** The hosted page after a confirmation link (or of an invalid one), in the hosted pages' layout. */
const page = (lang: "en" | "es", ok: boolean) => {
  const t = {
    en: ok
      ? ["Confirmed", "Your address is confirmed. You can close this page."]
      : ["Link not valid", "This confirmation link is not valid, was used or has expired."],
    es: ok
      ? ["Confirmado", "Tu dirección está confirmada. Puedes cerrar esta página."]
      : ["Enlace no válido", "Este enlace de confirmación no es válido, ya se usó o ha caducado."],
  }[lang];
  return renderMessage({ lang, title: t[0]!, text: t[1]! });
};

/**
 * GET {base_url}/activityid/v1/user/confirm?token=: the link of the
 * confirmation email. It confirms and redirects (302) to the whitelisted
 * context.url the users service returns, else to the hosted confirmed page.
 */
export const confirmRoutes: FastifyPluginAsyncTypebox<GatewayDeps> = async (app, deps) => {
  app.get(
    "/activityid/v1/user/confirm",
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
        const res = await deps.users!.confirmIdentifier({ linkToken: req.query.token });
        return reply
          .header("cache-control", "no-store")
          .redirect(res.redirectUrl || `${deps.config.publicBaseUrl}${CONFIRMED_PATH}`, 302);
      } catch (err) {
        const f = errorFacts(err);
        if (f.reason === "INVALID_CODE") return sendPage(reply, 400, page(req.locale, false));
        if (f.reason === "RATE_LIMITED") return sendError(reply, "RATE_LIMITED");
        throw err;
      }
    },
  );

  // POST {base_url}/activityid/v1/user/confirm: the logged user confirms an identifier by its code.
  app.post(
    "/activityid/v1/user/confirm",
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
        const res = await deps.users!.confirmIdentifier({
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
    async (req, reply) => sendPage(reply, 200, page(req.locale, true)),
  );
};
