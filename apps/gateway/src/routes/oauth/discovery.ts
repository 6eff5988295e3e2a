import type { FastifyPluginAsync } from "fastify";
import type { GatewayDeps } from "../../deps.ts";
import { cached } from "../../http/cache.ts";

/** Claims of the ID token and the UserInfo response. */
const CLAIMS_SUPPORTED = [
  "iss", "sub", "aud", "exp", "iat", "auth_time", "nonce", "at_hash", "sid",
  "email", "email_verified", "name", "family_name", "nickname", "birthdate", "gender", "locale",
];

/** RFC 8414 authorization server metadata and OpenID Connect discovery, from what the auth service supports. */
export const discoveryRoutes: FastifyPluginAsync<GatewayDeps> = async (app, deps) => {
  const auth = deps.config.publicAuthUrl;
  const methods = ["client_secret_basic", "client_secret_post"];
  const oauthMetadata = cached(60_000, async () => {
    const m = await deps.auth.getServerMetadata({});
    return {
      issuer: m.issuer,
      authorization_endpoint: `${auth}/oauth2/authorize`,
      token_endpoint: `${auth}/oauth2/token`,
      jwks_uri: `${auth}/oauth2/jwks`,
      introspection_endpoint: `${auth}/oauth2/introspect`,
      revocation_endpoint: `${auth}/oauth2/revoke`,
      grant_types_supported: m.grantTypesSupported,
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      // PKCE is required of every authorization request, with S256 only (plain is refused).
      code_challenge_methods_supported: ["S256"],
      // RFC 9207: the authorization response carries iss (mix-up defence).
      authorization_response_iss_parameter_supported: true,
      token_endpoint_auth_methods_supported: methods,
      introspection_endpoint_auth_methods_supported: methods,
      revocation_endpoint_auth_methods_supported: methods,
      scopes_supported: m.scopesSupported,
      service_documentation: `${deps.config.publicBaseUrl}/docs`,
    };
  });
  const algs = cached(60_000, async () => (await deps.auth.getServerMetadata({})).signingAlgValuesSupported);
  const send = (body: unknown) => (_req: unknown, reply: import("fastify").FastifyReply) =>
    reply.header("cache-control", "public, max-age=300").send(body);

  app.get("/.well-known/oauth-authorization-server", { config: { oauth: true }, schema: { summary: "RFC 8414 metadata", tags: ["oauth"] } }, async (req, reply) =>
    send(await oauthMetadata())(req, reply),
  );
  app.get("/.well-known/openid-configuration", { config: { oauth: true }, schema: { summary: "OpenID Connect discovery", tags: ["oauth"] } }, async (req, reply) => {
    const m = await oauthMetadata();
    return send({
      ...m,
      userinfo_endpoint: `${auth}/oauth2/userinfo`,
      end_session_endpoint: `${auth}/oauth2/logout`,
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: await algs(),
      claims_supported: CLAIMS_SUPPORTED,
      prompt_values_supported: ["none", "login", "create"],
    })(req, reply);
  });
};
