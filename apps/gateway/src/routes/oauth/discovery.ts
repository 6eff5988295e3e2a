import type { FastifyPluginAsync, FastifyReply } from "fastify";
import type { GatewayDeps } from "../../deps.ts";
import { cached } from "../../http/cache.ts";
import { otherMethods } from "../../oauth/methods.ts";

/** Claims of the ID token and the UserInfo response. */
const CLAIMS_SUPPORTED = [
  "iss",
  "sub",
  "aud",
  "exp",
  "iat",
  "auth_time",
  "nonce",
  "at_hash",
  "sid",
  "email",
  "email_verified",
  "name",
  "family_name",
  "nickname",
  "birthdate",
  "gender",
  "locale",
  "updated_at",
];

/** Public clients (entry points) authenticate with none; introspection needs a confidential client. */
const CLIENT_METHODS = ["client_secret_basic", "client_secret_post"];
const TOKEN_METHODS = [...CLIENT_METHODS, "none"];

/**
 * RFC 8414 authorization server metadata and OpenID Connect discovery, from
 * what the auth service supports. Exact (contract section 9): every endpoint,
 * grant, method, algorithm, scope and prompt listed works, and what is not
 * offered is said (no request objects, no request_uri).
 */
export const discoveryRoutes: FastifyPluginAsync<GatewayDeps> = async (app, deps) => {
  const auth = deps.config.publicAuthUrl;
  const metadata = cached(60_000, () => deps.auth.getServerMetadata({}));
  const oauthMetadata = async () => {
    const m = await metadata();
    return {
      issuer: m.issuer,
      authorization_endpoint: `${auth}/oauth2/authorize`,
      token_endpoint: `${auth}/oauth2/token`,
      jwks_uri: `${auth}/oauth2/jwks`,
      introspection_endpoint: `${auth}/oauth2/introspect`,
      revocation_endpoint: `${auth}/oauth2/revoke`,
      // RFC 8628 section 4 (the grant type is among grant_types_supported).
      ...(deps.devices ? { device_authorization_endpoint: `${auth}/oauth2/device_authorization` } : {}),
      grant_types_supported: m.grantTypesSupported,
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      // PKCE is required of every authorization request, with S256 only (plain is refused).
      code_challenge_methods_supported: ["S256"],
      // RFC 9207: the authorization response carries iss (mix-up defence).
      authorization_response_iss_parameter_supported: true,
      token_endpoint_auth_methods_supported: TOKEN_METHODS,
      revocation_endpoint_auth_methods_supported: TOKEN_METHODS,
      introspection_endpoint_auth_methods_supported: CLIENT_METHODS,
      // What /authorize accepts.
      scopes_supported: m.scopesSupported,
      ui_locales_supported: ["en", "es"],
      request_parameter_supported: false,
      request_uri_parameter_supported: false,
      service_documentation: `${deps.config.publicBaseUrl}/docs`,
    };
  };
  const send = (reply: FastifyReply, body: unknown) => reply.header("cache-control", "public, max-age=300").send(body);

  app.get(
    "/.well-known/oauth-authorization-server",
    { config: { oauth: true }, schema: { summary: "RFC 8414 metadata", tags: ["oauth"] } },
    async (_req, reply) => send(reply, await oauthMetadata()),
  );
  app.get(
    "/.well-known/openid-configuration",
    { config: { oauth: true }, schema: { summary: "OpenID Connect discovery", tags: ["oauth"] } },
    async (_req, reply) =>
      send(reply, {
        ...(await oauthMetadata()),
        userinfo_endpoint: `${auth}/oauth2/userinfo`,
        end_session_endpoint: `${auth}/oauth2/logout`,
        subject_types_supported: ["public"],
        // The configured SIGNING_ALG: every ID token is signed with it.
        id_token_signing_alg_values_supported: (await metadata()).signingAlgValuesSupported,
        claims_supported: CLAIMS_SUPPORTED,
        claims_parameter_supported: false,
        // none answers login_required (no single sign-on session); login is what always happens;
        // create (OpenID Connect Prompt Create) opens the entry point's registration page.
        prompt_values_supported: ["none", "login", "create"],
      }),
  );
  otherMethods(app, "/.well-known/oauth-authorization-server", ["GET"]);
  otherMethods(app, "/.well-known/openid-configuration", ["GET"]);
};
