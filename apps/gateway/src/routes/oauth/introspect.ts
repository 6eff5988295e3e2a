import type { FastifyPluginAsync } from "fastify";
import Type from "typebox";
import type { GatewayDeps } from "../../deps.ts";
import { sendOAuthError, sendOAuthRpcError } from "../../http/oauth-error.ts";
import { otherMethods } from "../../oauth/methods.ts";
import { oauthRequest } from "../../oauth/request.ts";
import { OAuthError } from "../../schemas/common.ts";

const IntrospectionResponse = Type.Object({
  active: Type.Boolean(),
  scope: Type.Optional(Type.String()),
  client_id: Type.Optional(Type.String()),
  sub: Type.Optional(Type.String()),
  exp: Type.Optional(Type.Integer()),
  iat: Type.Optional(Type.Integer()),
  iss: Type.Optional(Type.String()),
  aud: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
  jti: Type.Optional(Type.String()),
  token_type: Type.Optional(Type.String()),
});

/** POST /oauth2/introspect (RFC 7662): client authentication required; `{"active":false}` for anything invalid. */
export const introspectRoute: FastifyPluginAsync<GatewayDeps> = async (app, deps) => {
  app.post(
    "/oauth2/introspect",
    {
      config: { oauth: true },
      schema: {
        summary: "Token introspection (RFC 7662)",
        tags: ["oauth"],
        response: { 200: IntrospectionResponse, 400: OAuthError, 401: OAuthError },
      },
    },
    async (req, reply) => {
      const r = oauthRequest(req, reply);
      if (!r) return reply;
      const { token, token_type_hint: hint = "" } = r.params;
      if (!token) return sendOAuthError(reply, "INVALID_REQUEST", "token is required");
      try {
        const i = await deps.auth.introspectToken({ client: r.client, token, tokenTypeHint: hint });
        reply.headers({ "cache-control": "no-store", pragma: "no-cache" });
        if (!i.active) return reply.send({ active: false });
        return reply.send({
          active: true,
          scope: i.scope || undefined,
          client_id: i.clientId || undefined,
          sub: i.sub || undefined,
          exp: Number(i.exp),
          iat: Number(i.iat),
          iss: i.iss || undefined,
          aud: i.aud.length === 1 ? i.aud[0] : i.aud,
          jti: i.jti || undefined,
          token_type: i.tokenType || undefined,
        });
      } catch (err) {
        return sendOAuthRpcError(reply, err, r.usedBasic);
      }
    },
  );
  otherMethods(app, "/oauth2/introspect", ["POST"]);
};
