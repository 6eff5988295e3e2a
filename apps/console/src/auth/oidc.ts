import { randomToken, s256 } from "./pkce.ts";
import type { Session } from "./session.ts";

// Gatehouse's own hosted login for the console, a public client
// (token_endpoint_auth_method none): authorization code + PKCE S256, the code
// exchanged and refreshed from the browser, revocation and RP-initiated logout.

export const CLIENT_ID = "gatehouse-console";
export const SCOPE = "openid admin";
export const redirectUri = () => `${location.origin}/console/callback`;

export interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
  revocation_endpoint?: string;
  end_session_endpoint?: string;
}

let discovery: Promise<Discovery> | undefined;

/** The provider's metadata, fetched once per page load. */
export function discover(): Promise<Discovery> {
  discovery ??= fetch("/.well-known/openid-configuration", { headers: { accept: "application/json" } }).then(
    async (r) => {
      if (!r.ok) throw new Error(`discovery answered ${r.status}`);
      return (await r.json()) as Discovery;
    },
  );
  discovery.catch(() => (discovery = undefined));
  return discovery;
}

/** The authorization request: state and verifier to keep until the callback, and the URL to go to. */
export async function authorizationRequest(
  meta: Discovery,
  lang: string,
): Promise<{ url: string; state: string; verifier: string }> {
  const state = randomToken();
  const verifier = randomToken();
  const url = new URL(meta.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: CLIENT_ID,
    redirect_uri: redirectUri(),
    scope: SCOPE,
    state,
    code_challenge: await s256(verifier),
    code_challenge_method: "S256",
    ui_locales: lang,
  }).toString();
  return { url: url.toString(), state, verifier };
}

export class OAuthError extends Error {
  readonly code: string;
  constructor(code: string, description?: string) {
    super(description || code);
    this.code = code;
  }
}

async function tokenRequest(meta: Discovery, body: Record<string, string>): Promise<Session> {
  const res = await fetch(meta.token_endpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams({ client_id: CLIENT_ID, ...body }),
  });
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok || typeof json.access_token !== "string")
    throw new OAuthError(String(json.error ?? res.status), json.error_description as string | undefined);
  return {
    accessToken: json.access_token,
    expiresAt: Date.now() + Number(json.expires_in ?? 300) * 1000,
    ...(typeof json.refresh_token === "string" ? { refreshToken: json.refresh_token } : {}),
    ...(typeof json.id_token === "string" ? { idToken: json.id_token } : {}),
    ...(typeof json.scope === "string" ? { scope: json.scope } : {}),
  };
}

export const exchangeCode = (meta: Discovery, code: string, verifier: string) =>
  tokenRequest(meta, { grant_type: "authorization_code", code, redirect_uri: redirectUri(), code_verifier: verifier });

export async function refresh(meta: Discovery, s: Session): Promise<Session> {
  const next = await tokenRequest(meta, { grant_type: "refresh_token", refresh_token: s.refreshToken! });
  return { ...next, idToken: next.idToken ?? s.idToken };
}

/** Revokes the refresh token (its family) and the access token; failures do not keep the operator signed in. */
export async function revokeAll(meta: Discovery, s: Session): Promise<void> {
  if (!meta.revocation_endpoint) return;
  const tokens: [string, string][] = [[s.accessToken, "access_token"]];
  if (s.refreshToken) tokens.unshift([s.refreshToken, "refresh_token"]);
  for (const [token, hint] of tokens) {
    await fetch(meta.revocation_endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: CLIENT_ID, token, token_type_hint: hint }),
    }).catch(() => undefined);
  }
}

/** Where to send the browser to end the hosted-login session; it comes back to the callback with `state`. */
export function logoutUrl(meta: Discovery, s: Session | undefined, state: string): string {
  const url = new URL(meta.end_session_endpoint ?? "/oauth2/logout", location.origin);
  const p = new URLSearchParams({ client_id: CLIENT_ID, post_logout_redirect_uri: redirectUri(), state });
  if (s?.idToken) p.set("id_token_hint", s.idToken);
  url.search = p.toString();
  return url.toString();
}
