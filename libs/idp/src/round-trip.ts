import * as oidc from "openid-client";
import { UpstreamUnavailable } from "./outbound.ts";
import { OIDC_CLAIMS } from "./presets.ts";
import type { ProviderSettings, UpstreamIdentity } from "./provider.ts";

/** What the browser's cookie must bring back to finish: the checks of the callback, bound to this start. */
export interface UpstreamChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The provider's authorization URL (response_type=code, PKCE S256, state and, for OIDC, nonce) and its checks. */
export async function startUpstream(
  config: oidc.Configuration,
  p: ProviderSettings,
  redirectUri: string,
): Promise<{ url: URL; checks: UpstreamChecks }> {
  const checks = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
  const params: Record<string, string> = {
    response_type: "code",
    redirect_uri: redirectUri,
    scope: p.scopes.join(" "),
    state: checks.state,
    code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
    code_challenge_method: "S256",
  };
  if (p.type === "oidc") params.nonce = checks.nonce;
  return { url: oidc.buildAuthorizationUrl(config, params), checks };
}

/** The upstream answer was refused: an error the provider sent (access_denied…), a bad state, a bad token. */
export class UpstreamRefused extends Error {
  constructor(
    readonly reason: "provider_error" | "invalid_state" | "invalid_token" | "missing_subject",
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

function classify(e: unknown): never {
  if (e instanceof UpstreamRefused || e instanceof UpstreamUnavailable) throw e;
  if (e instanceof oidc.AuthorizationResponseError) throw new UpstreamRefused("provider_error", e.error, { cause: e });
  const code = (e as { code?: string }).code ?? "";
  const cause = (e as { cause?: { message?: string } }).cause;
  const message = [(e as Error).message ?? String(e), cause?.message ?? ""].join(": ");
  if (/state/i.test(message) && code.startsWith("OAUTH_"))
    throw new UpstreamRefused("invalid_state", message, { cause: e });
  if (code === "OAUTH_RESPONSE_IS_NOT_CONFORM" || code === "OAUTH_RESPONSE_IS_NOT_JSON" || e instanceof TypeError)
    throw new UpstreamUnavailable(message, { cause: e });
  if (code.startsWith("OAUTH_") || code.startsWith("ERR_JW"))
    throw new UpstreamRefused("invalid_token", message, { cause: e });
  throw new UpstreamUnavailable(message, { cause: e });
}

function text(v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return "";
}

/** Reads our claims from the provider's (verified) claims through the claim map. */
export function mapClaims(
  provider: string,
  raw: Record<string, unknown>,
  map: ProviderSettings["claims"],
): UpstreamIdentity {
  const get = (name: keyof ProviderSettings["claims"]) => (map[name] ? raw[map[name]] : undefined);
  const subject = text(get("subject"));
  if (!subject) throw new UpstreamRefused("missing_subject", "the provider named no subject");
  const verified = get("emailVerified");
  const profile: UpstreamIdentity["profile"] = {};
  for (const k of ["name", "surname", "birthday", "locale"] as const) {
    const v = text(get(k)).trim();
    if (v) profile[k] = v.slice(0, 200);
  }
  return {
    provider,
    subject: subject.slice(0, 255),
    email: text(get("email")).trim().toLowerCase().slice(0, 254),
    emailVerified: verified === true || verified === "true",
    profile,
  };
}

/**
 * Finishes the round trip from the callback URL: the state against the
 * browser's, the code exchanged with PKCE, and for OIDC the ID token verified
 * by openid-client (signature by the issuer's JWKS, iss, aud, nonce, exp with
 * the clock tolerance) before any claim is read; OAuth 2.0 reads userinfo.
 * Throws UpstreamRefused (the provider's or the answer's fault) or
 * UpstreamUnavailable (down, slow, nonsense). No upstream token is kept.
 */
export async function finishUpstream(
  config: oidc.Configuration,
  p: ProviderSettings,
  callbackUrl: URL,
  checks: UpstreamChecks,
): Promise<UpstreamIdentity> {
  try {
    if (p.type === "oidc") {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims() as Record<string, unknown> | undefined;
      if (!claims) throw new UpstreamRefused("invalid_token", "no ID token");
      let all = claims;
      if (!claims.email && config.serverMetadata().userinfo_endpoint)
        all = { ...(await oidc.fetchUserInfo(config, tokens.access_token, String(claims.sub))), ...claims };
      return mapClaims(p.key, all, OIDC_CLAIMS);
    }
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
    });
    const res = await oidc.fetchProtectedResource(config, tokens.access_token, new URL(p.userinfoEndpoint), "GET");
    if (!res.ok) throw new UpstreamUnavailable(`userinfo answered ${res.status}`);
    return mapClaims(p.key, (await res.json()) as Record<string, unknown>, p.claims);
  } catch (e) {
    return classify(e);
  }
}
