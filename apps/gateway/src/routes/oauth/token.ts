import type { FastifyPluginAsync } from "fastify";
import Type from "typebox";
import type { GatewayDeps } from "../../deps.ts";
import { sendOAuthError, sendOAuthRpcError } from "../../http/oauth-error.ts";
import { otherMethods } from "../../oauth/methods.ts";
import { oauthRequest } from "../../oauth/request.ts";
import { OAuthError } from "../../schemas/common.ts";

const TokenResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.String(),
  expires_in: Type.Integer(),
  scope: Type.Optional(Type.String()),
  refresh_token: Type.Optional(Type.String()),
  id_token: Type.Optional(Type.String()),
});

/** POST /oauth2/token (RFC 6749 section 3.2); the grants live in the auth service. */
export const tokenRoute: FastifyPluginAsync<GatewayDeps> = async (app, deps) => {
  app.post(
    "/oauth2/token",
    {
      config: { oauth: true },
      schema: {
        summary: "Token endpoint",
        description:
          "application/x-www-form-urlencoded; client_secret_basic, client_secret_post, or none (an entry point id as a public client). " +
          "Grants: authorization_code (PKCE S256), refresh_token (rotating), client_credentials (confidential clients).",
        tags: ["oauth"],
        response: { 200: TokenResponse, 400: OAuthError, 401: OAuthError },
      },
    },
    async (req, reply) => {
      const r = oauthRequest(req, reply);
      if (!r) return reply;
      const { grant_type: grantType, ...parameters } = r.params;
      if (!grantType) return sendOAuthError(reply, "INVALID_REQUEST", "grant_type is required");
      try {
        const t = await deps.auth.issueToken({ client: r.client, grantType, parameters });
        const body: Record<string, unknown> = {
          access_token: t.accessToken,
          token_type: t.tokenType,
          expires_in: Number(t.expiresIn),
        };
        if (t.scope) body.scope = t.scope;
        if (t.refreshToken) body.refresh_token = t.refreshToken;
        if (t.idToken) body.id_token = t.idToken;
        return reply.headers({ "cache-control": "no-store", pragma: "no-cache" }).send(body);
      } catch (err) {
        return sendOAuthRpcError(reply, err, r.usedBasic);
      }
    },
  );
  otherMethods(app, "/oauth2/token", ["POST"]);
};
