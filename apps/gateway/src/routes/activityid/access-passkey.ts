import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Wired } from "../../deps.ts";
import { bodyless, noBody } from "../../http/admin-call.ts";
import { appToken, callerOf } from "../../http/app-token.ts";
import { requireBearer } from "../../http/bearer-guard.ts";
import { sendContent } from "../../http/envelope.ts";
import { errorResponses } from "../../schemas/common.ts";
import { PasskeySignInContent } from "../../schemas/passkeys.ts";
import { UserHeaders } from "../../schemas/user.ts";

/**
 * POST {base_url}/activityid/v1/user/access/passkey (contract section 12):
 * request options of a passkey sign-in (discoverable: no allowCredentials;
 * user verification required) and the token to send back with the
 * assertion as `object.passkey` at /user/access. Bound to the APP_TOKEN's
 * application and the `From` entry point; works once, for 5 minutes.
 */
export const accessPasskeyRoute: FastifyPluginAsyncTypebox<Wired<"users" | "passkeys">> = async (app, deps) => {
  app.post(
    "/activityid/v1/user/access/passkey",
    {
      // No body or `{}` (docs/api.md): a bare POST is not a malformed request.
      onRequest: [noBody, requireBearer(deps.verifyAccessToken, appToken)],
      preValidation: bodyless.preValidation,
      schema: {
        summary: "Start a passkey sign-in (no body, or {})",
        tags: ["users"],
        security: [{ bearer: [] }],
        headers: UserHeaders,
        response: { 200: PasskeySignInContent, ...errorResponses(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const res = await deps.passkeys.beginPasskeySignIn({
        caller: callerOf(req, req.principal!.clientId!, "unknown"),
      });
      reply.header("cache-control", "no-store");
      return sendContent(reply, 200, { publicKey: res.publicKey, token: res.token });
    },
  );
};
