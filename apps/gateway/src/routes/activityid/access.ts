import type { JsonObject } from "@bufbuild/protobuf";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { errorFacts } from "@gatehouse/errors";
import type { GatewayDeps } from "../../deps.ts";
import { appToken, callerOf } from "../../http/app-token.ts";
import { requireBearer } from "../../http/bearer-guard.ts";
import { elapsed, sendContent, sendError } from "../../http/envelope.ts";
import { sessionToJson, userToJson } from "../../http/user-json.ts";
import { ErrorEnvelopeWithUrl, errorResponses } from "../../schemas/common.ts";
import { LoginEnvelope, LoginQuery, UserContent, UserContentIncomplete, UserHeaders } from "../../schemas/user.ts";
import { sendMfaRequired } from "../../http/mfa.ts";
import { MfaRequiredEnvelope } from "../../schemas/mfa.ts";
import { sendTermsRequired } from "../../http/terms.ts";
import { TermsRequired } from "../../schemas/assertions.ts";
import { RESEND_PATH } from "./resend.ts";

/**
 * POST {base_url}/activityid/v1/user/access: login. The checks run in the
 * contract's order: envelope (400, by the schema), app token (401), entry
 * point (403), credentials (403), unconfirmed (412, `content.url` = the
 * resend link; `errors.subcode` 429 when the resend limit is hit), then 200
 * or 206 (fca).
 */
export const accessRoute: FastifyPluginAsyncTypebox<GatewayDeps> = async (app, deps) => {
  app.post(
    "/activityid/v1/user/access",
    {
      onRequest: requireBearer(deps.verifyAccessToken, appToken),
      schema: {
        summary: "Log a user in",
        tags: ["users"],
        security: [{ bearer: [] }],
        headers: UserHeaders,
        querystring: LoginQuery,
        body: LoginEnvelope,
        response: { 200: UserContent, 206: UserContentIncomplete, ...errorResponses(400, 401, 403, 429), 412: ErrorEnvelopeWithUrl, 451: TermsRequired, 428: MfaRequiredEnvelope },
      },
    },
    async (req, reply) => {
      const principal = req.principal!;
      if (req.body.actor.id !== principal.clientId) {
        return sendError(reply, "VALIDATION_FAILED", { violations: [{ field: "actor.id", code: "invalid_value" }] });
      }
      try {
        const res = await deps.users!.loginUser({
          caller: callerOf(req, principal.clientId!, req.body.source.id),
          email: req.body.object.ids.email.value,
          password: req.body.object.password,
          fca: req.query.fca === true,
          // Answers to legal assertions, recorded once the password is right (they may clear a 451).
          assertions: req.body.object.assertions as JsonObject | undefined,
        });
        const content = { user: userToJson(res.user!), session_info: sessionToJson(res.session!, res.user!.id) };
        if (!res.missingFields.length) return sendContent(reply, 200, content);
        const items = res.missingFields.map((f) => ({ field: `object.datas.${f}`, code: "required" }));
        const shown = req.singleError ? items.slice(0, 1) : items;
        return reply.code(206).send({
          content,
          result: { status: 206, elapsed: elapsed(req) },
          errors: {
            code: "account_incomplete",
            message: req.locale === "es" ? "Faltan datos obligatorios de la cuenta." : "The account lacks mandatory data.",
            details: shown.map((i) => i.field).join(", "),
            items: shown.map((i) => ({ ...i, message: req.locale === "es" ? "Este campo es obligatorio." : "This field is required." })),
          },
        });
      } catch (err) {
        const f = errorFacts(err);
        if (f.reason === "ENTRYPOINT_NOT_FOUND") return sendError(reply, "PERMISSION_DENIED", { details: "From is not an entry point of this application" });
        if (f.reason === "TERMS_NOT_ACCEPTED") return sendTermsRequired(reply, deps.config.publicBaseUrl, f);
        if (f.reason === "MFA_REQUIRED") return sendMfaRequired(reply, f.metadata);
        if (f.reason === "RATE_LIMITED" && f.metadata.retry_after) reply.header("retry-after", f.metadata.retry_after);
        if (f.reason === "USER_UNCONFIRMED") {
          // The users service already tried to resend a code; the link asks for another (GET, resend.ts).
          const token = f.metadata.resend_token ? `?token=${encodeURIComponent(f.metadata.resend_token)}` : "";
          const url = `${deps.config.publicBaseUrl}${RESEND_PATH}${token}`;
          const subcode = f.metadata.subcode ? Number(f.metadata.subcode) : undefined;
          if (subcode === 429 && f.metadata.retry_after) reply.header("retry-after", f.metadata.retry_after);
          return sendError(reply, f.reason, { subcode, content: { url } });
        }
        throw err;
      }
    },
  );
};
