import type { FastifyPluginAsync } from "fastify";
import Type from "typebox";
import type { GatewayDeps } from "../../deps.ts";
import { sendOAuthError, sendOAuthRpcError } from "../../http/oauth-error.ts";
import { otherMethods } from "../../oauth/methods.ts";
import { oauthRequest } from "../../oauth/request.ts";
import { OAuthError } from "../../schemas/common.ts";

/**
 * POST /oauth2/revoke (RFC 7009): 200 with the JSON body `{}` (clients that
 * parse every answer as JSON get one), also for tokens that were already
 * invalid. A public client revokes with its client_id alone.
 */
export const revokeRoute: FastifyPluginAsync<GatewayDeps> = async (app, deps) => {
  app.post(
    "/oauth2/revoke",
    {
      config: { oauth: true },
      schema: {
        summary: "Token revocation (RFC 7009)",
        tags: ["oauth"],
        response: {
          200: Type.Object({}, { description: "Revoked, or was not valid" }),
          400: OAuthError,
          401: OAuthError,
        },
      },
    },
    async (req, reply) => {
      const r = oauthRequest(req, reply);
      if (!r) return reply;
      const { token, token_type_hint: hint = "" } = r.params;
      if (!token) return sendOAuthError(reply, "INVALID_REQUEST", "token is required");
      try {
        await deps.auth.revokeToken({ client: r.client, token, tokenTypeHint: hint });
        return reply
          .code(200)
          .type("application/json")
          .headers({ "cache-control": "no-store", pragma: "no-cache" })
          .send({});
      } catch (err) {
        return sendOAuthRpcError(reply, err, r.usedBasic);
      }
    },
  );
  otherMethods(app, "/oauth2/revoke", ["POST"]);
};
