import * as oidc from "openid-client";
import { guardedFetch, UpstreamUnavailable, type OutboundPolicy } from "./outbound.ts";
import type { ProviderSettings } from "./provider.ts";

/** Clock skew tolerated on the ID token's iat/exp/nbf (seconds). */
export const CLOCK_TOLERANCE_SECONDS = 60;

function clientAuth(p: ProviderSettings, secret: string, methods: string[] | undefined): oidc.ClientAuth {
  // Only checking the issuer at registration: no token request follows.
  if (!secret) return oidc.None();
  // client_secret_post is what Apple, GitHub and Facebook take; Basic where the issuer says it is the only one.
  if (
    p.type === "oidc" &&
    methods &&
    !methods.includes("client_secret_post") &&
    methods.includes("client_secret_basic")
  )
    return oidc.ClientSecretBasic(secret);
  return oidc.ClientSecretPost(secret);
}

function configure(config: oidc.Configuration, policy: OutboundPolicy): oidc.Configuration {
  config[oidc.customFetch] = guardedFetch(policy) as oidc.CustomFetch;
  config.timeout = Math.ceil(policy.timeoutMs / 1000);
  // openid-client's own https rule is off: guardedFetch applies ours (http only on a loopback host) to every call.
  oidc.allowInsecureRequests(config);
  return config;
}

const metadata = (p: ProviderSettings) => ({ client_id: p.clientId, [oidc.clockTolerance]: CLOCK_TOLERANCE_SECONDS });

/**
 * The openid-client configuration of a provider: OIDC from the issuer's
 * discovery document (openid-client checks that it names the same issuer),
 * OAuth 2.0 from the registered endpoints. Every call it makes goes through
 * the outbound policy and its timeout.
 */
export async function providerConfiguration(
  p: ProviderSettings,
  secret: string,
  policy: OutboundPolicy,
): Promise<oidc.Configuration> {
  if (p.type === "oauth2") {
    const server = {
      issuer: new URL(p.authorizationEndpoint).origin,
      authorization_endpoint: p.authorizationEndpoint,
      token_endpoint: p.tokenEndpoint,
      userinfo_endpoint: p.userinfoEndpoint,
    };
    return configure(new oidc.Configuration(server, p.clientId, metadata(p), clientAuth(p, secret, undefined)), policy);
  }
  let config: oidc.Configuration;
  try {
    config = await oidc.discovery(new URL(p.issuer), p.clientId, metadata(p), undefined, {
      [oidc.customFetch]: guardedFetch(policy) as oidc.CustomFetch,
      timeout: Math.ceil(policy.timeoutMs / 1000),
      execute: [oidc.allowInsecureRequests],
    });
  } catch (e) {
    throw new UpstreamUnavailable(`discovery of ${p.issuer} failed: ${(e as Error).message}`, { cause: e });
  }
  const server = config.serverMetadata();
  const methods = server.token_endpoint_auth_methods_supported;
  // Rebuilt with the client's authentication now that the issuer's methods are known.
  const ready = configure(
    new oidc.Configuration(server, p.clientId, metadata(p), clientAuth(p, secret, methods)),
    policy,
  );
  // openid-client trusts TLS for the token endpoint's ID token by default; the contract wants its signature
  // checked with the issuer's JWKS (refetched for an unknown kid: key rotation) before any claim is read.
  oidc.enableNonRepudiationChecks(ready);
  return ready;
}

/**
 * What a provider must answer when it is registered: an OIDC issuer's
 * discovery document (with authorization and token endpoints) and its JWKS
 * with at least one key. Throws UpstreamUnavailable with the reason.
 */
export async function checkIssuer(p: ProviderSettings, policy: OutboundPolicy): Promise<void> {
  if (p.type !== "oidc") return;
  const server = (await providerConfiguration(p, "", policy)).serverMetadata();
  if (!server.authorization_endpoint || !server.token_endpoint)
    throw new UpstreamUnavailable("the discovery document has no authorization or token endpoint");
  if (!server.jwks_uri) throw new UpstreamUnavailable("the discovery document has no jwks_uri");
  let keys: unknown;
  try {
    const res = await guardedFetch(policy)(server.jwks_uri, { headers: { accept: "application/json" } });
    if (!res.ok) throw new UpstreamUnavailable(`the JWKS answered ${res.status}`);
    keys = ((await res.json()) as { keys?: unknown }).keys;
  } catch (e) {
    if (e instanceof UpstreamUnavailable) throw e;
    throw new UpstreamUnavailable(`the JWKS could not be read: ${(e as Error).message}`, { cause: e });
  }
  if (!Array.isArray(keys) || keys.length === 0) throw new UpstreamUnavailable("the JWKS has no keys");
}
