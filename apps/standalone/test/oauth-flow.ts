import { createHash, randomBytes } from "node:crypto";
import type { TestStack } from "./stack-helpers.ts";
import { createApp, loggedUser, type FlowApp, type LoggedUser } from "./user-flows.ts";

// The authorization code flow through an in-process stack (app.inject): an
// application with chosen redirect URIs, a confirmed user, the hosted login
// form posted back with its cookie, the code exchanged with PKCE.

export const REDIRECT = "https://shop.example.com/callback";
export const LOOPBACK = "http://127.0.0.1/callback";

export function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** An application whose redirect URIs are `redirectUris`, with its APP_TOKEN. */
export function createOAuthApp(
  s: TestStack,
  redirectUris: string[] = [REDIRECT, LOOPBACK],
  key = "shop",
): Promise<FlowApp> {
  return createApp(s, key, (body) => void (body.redirectUris = redirectUris));
}

/** A registered user whose email is confirmed. */
export const confirmedUser = (s: TestStack, app: FlowApp): Promise<LoggedUser> => loggedUser(s, app);

export interface AuthorizeParams {
  client_id: string;
  redirect_uri?: string;
  response_type?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  nonce?: string;
  [k: string]: string | undefined;
}

export function authorizePath(params: AuthorizeParams): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.append(k, v);
  return `/oauth2/authorize?${q.toString()}`;
}

/** A complete valid authorization request for `app`. */
export function validAuthorize(app: FlowApp, challenge: string, extra: Partial<AuthorizeParams> = {}): AuthorizeParams {
  return {
    response_type: "code",
    client_id: app.id,
    redirect_uri: REDIRECT,
    scope: "openid profile email",
    state: "st-" + randomBytes(6).toString("hex"),
    code_challenge: challenge,
    code_challenge_method: "S256",
    nonce: "n-" + randomBytes(6).toString("hex"),
    ...extra,
  };
}

/** The form token and CSRF cookie of a login page. */
export function formOf(res: { body: string; headers: Record<string, unknown> }, cookie?: string) {
  const token = /name="form_token" value="([^"]+)"/.exec(res.body)?.[1];
  const set = res.headers["set-cookie"];
  const fresh = (Array.isArray(set) ? set[0] : (set as string | undefined))?.split(";")[0];
  return { token: token ?? "", cookie: fresh ?? cookie ?? "" };
}

/** Posts the login form as a browser would (with the cookie of the page). */
export function postLogin(
  s: TestStack,
  form: { token: string; cookie: string },
  email: string,
  password: string,
  headers: Record<string, string> = {},
) {
  return s.app.inject({
    method: "POST",
    url: "/oauth2/authorize",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: form.cookie, ...headers },
    payload: new URLSearchParams({ form_token: form.token, email, password }).toString(),
  });
}

/** The hosted login from the authorization request to the redirect: the Location's parameters. */
export async function loginForCode(s: TestStack, params: AuthorizeParams, email: string, password: string) {
  const page = await s.app.inject({ method: "GET", url: authorizePath(params) });
  if (page.statusCode !== 200) throw new Error(`authorize: ${page.statusCode} ${page.body}`);
  const done = await postLogin(s, formOf(page), email, password);
  if (done.statusCode !== 303) throw new Error(`login: ${done.statusCode} ${done.body}`);
  const location = String(done.headers.location);
  return { location, query: new URL(location).searchParams };
}

/** The authorization_code grant (client_secret_basic). */
export function exchange(s: TestStack, app: FlowApp, form: Record<string, string>) {
  return s.app.inject({
    method: "POST",
    url: "/oauth2/token",
    headers: { authorization: s.basic(app.id, app.password), "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({ grant_type: "authorization_code", redirect_uri: REDIRECT, ...form }).toString(),
  });
}

/** A token request of a public client (an entry point id, no secret: method none). */
export function publicTokenRequest(
  s: TestStack,
  clientId: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return s.app.inject({
    method: "POST",
    url: "/oauth2/token",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    payload: new URLSearchParams({ client_id: clientId, ...form }).toString(),
  });
}
