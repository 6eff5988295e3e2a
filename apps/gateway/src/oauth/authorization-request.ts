import { CONSOLE_CLIENT_ID, OPERATOR_PERSON_SCOPES, USER_SCOPES } from "@gatehouse/rpc";
import type { HostedApp, OAuthClients } from "./applications.ts";
import { redirectUriAllowed } from "./redirect-uri.ts";

/** A checked authorization request: what the hosted login carries from page to page (in its signed form token). */
export interface PendingAuthorization {
  /** The OAuth client: the application, or its entry point acting as a public client. */
  clientId: string;
  /** The application, when clientId is a public client (an entry point id); the login signs in as it. */
  applicationId?: string;
  redirectUri: string;
  state?: string;
  scope: string;
  codeChallenge: string;
  nonce?: string;
  entrypointId: string;
  /** ui_locales choice, when the client made one. */
  locale?: "en" | "es";
  /** OpenID Connect login_hint, when it is an email: prefills the email input. */
  loginHint?: string;
}

/** The scope granted when the request names none (RFC 6749 section 3.3 lets the server choose). */
export const DEFAULT_SCOPE = "profile";

const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]+(?: [\x21\x23-\x5B\x5D-\x7E]+)*$/;
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_VALUE = 2048;
const MAX_NONCE = 512;
// RFC 5321: an address fits in 254 characters; a longer hint is not an email to prefill.
const MAX_LOGIN_HINT = 254;

/** Why the request cannot even be answered at its redirect URI (RFC 6749 section 4.1.2.1: never redirect then). */
export type PageProblem =
  "client_missing" | "client_unknown" | "redirect_missing" | "redirect_invalid" | "request_malformed";

export type AuthorizationOutcome =
  | { kind: "page"; problem: PageProblem }
  | { kind: "redirect"; redirectUri: string; state?: string; error: string; description: string }
  | { kind: "login"; app: HostedApp; pending: PendingAuthorization };

/** Query or form parameters: each once (RFC 6749 section 3.1), empty = absent. */
export function authorizationParams(raw: unknown): { params: Record<string, string>; repeated: string[] } {
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  const repeated: string[] = [];
  if (raw && typeof raw === "object") {
    for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
      if (Array.isArray(v)) repeated.push(k);
      else if (typeof v === "string" && v !== "") params[k] = v;
    }
  }
  return { params, repeated };
}

/**
 * Checks an authorization request (RFC 6749 section 4.1.1, RFC 7636, OpenID
 * Connect Core 3.1.2.1) in two stages. Until the client and its exact
 * redirect URI are known, a problem is shown on a page. After that, every
 * problem goes back to the client's redirect URI with `error` and `state`.
 */
export async function checkAuthorizationRequest(
  clients: OAuthClients,
  raw: unknown,
  /** The gateway's own device page callback (RFC 8628): every client may sign a person in for a device there. */
  deviceCallback?: string,
): Promise<AuthorizationOutcome> {
  const { params: p, repeated } = authorizationParams(raw);
  if (repeated.includes("client_id") || repeated.includes("redirect_uri"))
    return { kind: "page", problem: "request_malformed" };
  if (!p.client_id) return { kind: "page", problem: "client_missing" };
  // An application, or one of its entry points as a public client (contract section 9).
  const client = await clients.client(p.client_id);
  if (!client) return { kind: "page", problem: "client_unknown" };
  const app = client.app;
  // Required even with a single registered URI (OpenID Connect and OAuth 2.1 ask for it; no guessing).
  if (!p.redirect_uri) return { kind: "page", problem: "redirect_missing" };
  if (p.redirect_uri !== deviceCallback && !redirectUriAllowed(p.redirect_uri, app.redirectUris))
    return { kind: "page", problem: "redirect_invalid" };

  const redirectUri = p.redirect_uri;
  const state = repeated.includes("state") ? undefined : p.state;
  const fail = (error: string, description: string): AuthorizationOutcome => ({
    kind: "redirect",
    redirectUri,
    ...(state === undefined ? {} : { state }),
    error,
    description,
  });

  if (repeated.length) return fail("invalid_request", `parameter repeated: ${repeated.join(", ")}`);
  if (!p.response_type) return fail("invalid_request", "response_type is required");
  if (p.response_type !== "code") return fail("unsupported_response_type", "only response_type=code is supported");
  if (p.response_mode !== undefined && p.response_mode !== "query")
    return fail("invalid_request", "only response_mode=query is supported");
  if (p.request !== undefined) return fail("request_not_supported", "request objects are not supported");
  if (p.request_uri !== undefined) return fail("request_uri_not_supported", "request_uri is not supported");
  for (const name of ["state", "nonce", "scope", "entrypoint", "ui_locales", "prompt", "login_hint", "max_age"]) {
    if ((p[name]?.length ?? 0) > MAX_VALUE) return fail("invalid_request", `${name} is too long`);
  }
  const scope = p.scope ?? DEFAULT_SCOPE;
  if (!SCOPE.test(scope)) return fail("invalid_scope", "scope must be space-separated scope tokens");
  const scopes = [...new Set(scope.split(" "))];
  // The admin scopes are for operator persons, through the console's public client only (the users service checks the role).
  const available = client.clientId === CONSOLE_CLIENT_ID ? [...USER_SCOPES, ...OPERATOR_PERSON_SCOPES] : USER_SCOPES;
  const unknown = scopes.filter((s) => !available.includes(s));
  if (unknown.length)
    return fail("invalid_scope", `scope not available at the authorization endpoint: ${unknown.join(" ")}`);
  // PKCE (RFC 7636) with S256 is required of every client; plain is refused (RFC 9700 section 2.1.1).
  if (p.code_verifier !== undefined)
    return fail("invalid_request", "code_verifier belongs in the token request, never in the authorization request");
  if (!p.code_challenge) return fail("invalid_request", "code_challenge is required (PKCE, S256)");
  if (!p.code_challenge_method) return fail("invalid_request", "code_challenge_method is required and must be S256");
  if (p.code_challenge_method !== "S256") return fail("invalid_request", "code_challenge_method must be S256");
  if (!S256_CHALLENGE.test(p.code_challenge))
    return fail("invalid_request", "code_challenge must be 43 base64url characters (S256)");
  if ((p.nonce?.length ?? 0) > MAX_NONCE) return fail("invalid_request", "nonce is too long");
  // OpenID Connect Core 3.1.2.1: max_age is a number of seconds. Every sign-in here is fresh (there
  // is no single sign-on session), so any max_age is met; the ID token carries auth_time.
  if (p.max_age !== undefined && !/^\d{1,10}$/.test(p.max_age))
    return fail("invalid_request", "max_age must be a whole number of seconds");
  const prompts = p.prompt?.split(" ") ?? [];
  if (prompts.includes("none") && prompts.length > 1)
    return fail("invalid_request", "prompt=none cannot be combined with other values");
  // No single sign-on session exists at the authorization server, so a silent request cannot succeed
  // and prompt=login is what always happens.
  if (prompts.includes("none")) return fail("login_required", "the user must log in");
  const named = p.entrypoint
    ? app.entrypoints.find((e) => e.id === p.entrypoint || (e.key !== "" && e.key === p.entrypoint))
    : undefined;
  if (p.entrypoint && !named) return fail("invalid_request", "entrypoint is not an entry point of this application");
  // A public client is its entry point: another one cannot be chosen.
  if (client.entrypointId && named && named.id !== client.entrypointId)
    return fail("invalid_request", "a public client signs in through its own entry point");
  const entrypoint = client.entrypointId
    ? app.entrypoints.find((e) => e.id === client.entrypointId)
    : (named ?? app.entrypoints[0]);
  if (!entrypoint) return fail("invalid_request", "the application has no entry point");
  const loginHint =
    p.login_hint && p.login_hint.length <= MAX_LOGIN_HINT && p.login_hint.includes("@") && !/\p{Cc}/u.test(p.login_hint)
      ? p.login_hint
      : undefined;
  const locale = p.ui_locales
    ?.split(" ")
    .map((l) => l.split("-")[0]!.toLowerCase())
    .find((l) => l === "en" || l === "es");

  return {
    kind: "login",
    app,
    pending: {
      clientId: client.clientId,
      ...(client.clientId === app.clientId ? {} : { applicationId: app.clientId }),
      redirectUri,
      ...(state === undefined ? {} : { state }),
      scope: scopes.join(" "),
      codeChallenge: p.code_challenge,
      ...(p.nonce ? { nonce: p.nonce } : {}),
      entrypointId: entrypoint.id,
      ...(locale === "en" || locale === "es" ? { locale } : {}),
      ...(loginHint ? { loginHint } : {}),
    },
  };
}
