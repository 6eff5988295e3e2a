import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Wired } from "../../deps.ts";
import { appToken, callerOf } from "../../http/app-token.ts";
import { requireBearer } from "../../http/bearer-guard.ts";
import { errorResponses } from "../../schemas/common.ts";
import { MfaLoginBody, MfaRequiredEnvelope } from "../../schemas/mfa.ts";
import { LoginQuery, UserContent, UserContentIncomplete, UserHeaders } from "../../schemas/user.ts";
import { sendLoginOutcome } from "./login-outcomes.ts";

/**
 * POST {base_url}/activityid/v1/user/access/mfa `{"token", "code"}`: finishes
 * a login that answered 428. APP_TOKEN and From of the login; the code is a
 * TOTP code (each time step once) or a recovery code (once). The token is
 * single use and dies after 5 wrong codes. Then the rest of the login runs:
 * terms (451), 200, or 206 with `fca=true` (of this request or the login's),
 * rendered like the login's by the outcome table.
 */
export const accessMfaRoute: FastifyPluginAsyncTypebox<Wired<"mfa">> = async (app, deps) => {
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
        response: {
          200: UserContent,
          206: UserContentIncomplete,
          428: MfaRequiredEnvelope,
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    async (req, reply) => {
      const principal = req.principal!;
      const res = await deps.mfa.completeMfaLogin({
        caller: callerOf(req, principal.clientId!, ""),
        mfaToken: req.body.token,
        code: req.body.code ?? "",
        fca: req.query.fca === true,
      });
      return sendLoginOutcome({ reply, publicBaseUrl: deps.config.publicBaseUrl }, res.outcome);
    },
  );
};
