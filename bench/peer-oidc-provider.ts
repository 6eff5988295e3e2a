import { createServer } from "node:http";
import { exportJWK, generateKeyPair } from "jose";
import Provider from "oidc-provider";

// The benchmark's peer: panva's oidc-provider (v9), one process, default
// in-memory adapter, client_credentials issuing RFC 9068 JWT access tokens
// signed with a fresh key of PEER_ALG (the bench passes Gatehouse's algorithm, RS256 by default),
// and RFC 7662 introspection. oidc-provider stores only opaque tokens and
// introspects only what it stored: its JWT access tokens always introspect as
// inactive. A second client, PEER_CLIENT_ID-opaque, gets opaque tokens for the
// introspection scenario: the peer answers it with a lookup in its in-memory
// store and no signature check (less work than verifying a JWT).

const env = (name: string) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is required`);
  return v;
};
const port = Number(env("PEER_PORT"));
const issuer = env("PEER_ISSUER");
const resource = `${issuer}/api`;
const scope = "apps:read";
const opaqueClientId = `${env("PEER_CLIENT_ID")}-opaque`;

const alg = process.env.PEER_ALG ?? "RS256";
const { privateKey } = await generateKeyPair(alg, {
  extractable: true,
  ...(alg === "EdDSA" ? { crv: "Ed25519" } : {}),
});
const jwk = { ...(await exportJWK(privateKey)), kid: `bench-${alg.toLowerCase()}`, alg, use: "sig" };

const provider = new Provider(issuer, {
  // The same client twice: the second one's tokens are opaque (introspected by the bench).
  clients: [env("PEER_CLIENT_ID"), opaqueClientId].map((client_id) => ({
    client_id,
    client_secret: env("PEER_CLIENT_SECRET"),
    token_endpoint_auth_method: "client_secret_basic" as const,
    grant_types: ["client_credentials"],
    response_types: [],
    redirect_uris: [],
    id_token_signed_response_alg: alg,
    scope,
  })),
  jwks: { keys: [jwk] },
  scopes: [scope],
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: async () => resource,
      useGrantedResource: async () => true,
      getResourceServerInfo: async (_ctx: unknown, _resource: string, client: { clientId: string }) => ({
        scope,
        audience: resource,
        accessTokenTTL: 3600,
        ...(client.clientId === opaqueClientId
          ? { accessTokenFormat: "opaque" as const }
          : { accessTokenFormat: "jwt" as const, jwt: { sign: { alg } } }),
      }),
    },
  },
});
provider.on("server_error", (_ctx, err) => console.error("server_error", err));

const server = createServer(provider.callback());
server.listen(port, "127.0.0.1", () => console.log(`oidc-provider listening on ${issuer}`));
const stop = () => server.close(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
