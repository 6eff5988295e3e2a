import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { errorFacts } from "@gatehouse/errors";
import type { GatewayDeps } from "../../deps.ts";
import { appToken, callerOf } from "../../http/app-token.ts";
import { requireBearer } from "../../http/bearer-guard.ts";
import { sendContent, sendError } from "../../http/envelope.ts";
import { sendMfaRequired } from "../../http/mfa.ts";
import { sendPartial } from "../../http/partial.ts";
import { sendTermsRequired } from "../../http/terms.ts";
import { sessionToJson, userToJson } from "../../http/user-json.ts";
import { errorResponses } from "../../schemas/common.ts";
import { MfaLoginBody, MfaRequiredEnvelope } from "../../schemas/mfa.ts";
import { LoginQuery, UserContent, UserContentIncomplete, UserHeaders } from "../../schemas/user.ts";

/**
 * POST {base_url}/activityid/v1/user/access/mfa `{"token", "code"}`: finishes
 * a login that answered 428. APP_TOKEN and From of the login; the code is a
 * TOTP code (each time step once) or a recovery code (once). The token is
 * single use and dies after 5 wrong codes. Then the rest of the login runs:
 * terms (451), 200, or 206 with `fca=true` (of this request or the login's).
 */
export const accessMfaRoute: FastifyPluginAsyncTypebox<GatewayDeps> = async (app, deps) => {
  app.post(
    "/activityid/v1/user/access/mfa",
    {
      onRequest: requireBearer(deps.verifyAccessToken, appToken),
      schema: {
        summary: "Finish a login with the MFA code",
        tags: ["users"],
        security: [{ bearer: [] }],
        headers: UserHeaders,
        querystring: LoginQuery,
        body: MfaLoginBody,
        response: { 200: UserContent, 206: UserContentIncomplete, 428: MfaRequiredEnvelope, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (req, reply) => {
      const principal = req.principal!;
      try {
        const res = await deps.mfa!.completeMfaLogin({
          caller: callerOf(req, principal.clientId!, ""),
          mfaToken: req.body.token,
          code: req.body.code ?? "",
          fca: req.query.fca === true,
        });
        const content = { user: userToJson(res.user!), session_info: sessionToJson(res.session!, res.user!.id) };
        if (!res.missingFields.length) return sendContent(reply, 200, content);
        return sendPartial(reply, content, "account_incomplete", res.missingFields.map((f) => ({ field: `object.datas.${f}`, code: "required" })));
      } catch (err) {
        const f = errorFacts(err);
        if (f.reason === "ENTRYPOINT_NOT_FOUND") return sendError(reply, "PERMISSION_DENIED", { details: "From is not an entry point of this application" });
        if (f.reason === "MFA_REQUIRED") return sendMfaRequired(reply, f.metadata);
        // Terms come after MFA (contract section 5): the same 451 body as the login.
        if (f.reason === "TERMS_NOT_ACCEPTED") return sendTermsRequired(reply, deps.config.publicBaseUrl, f);
        if (f.reason === "RATE_LIMITED" && f.metadata.retry_after) reply.header("retry-after", f.metadata.retry_after);
        if (f.reason === "MFA_CODE_INVALID") return sendError(reply, f.reason, { violations: [{ field: "code", code: "invalid_value" }] });
        throw err;
      }
    },
  );
};
