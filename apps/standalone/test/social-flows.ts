import type { UpstreamIdp } from "@gatehouse/testing/upstream-idp";
import { admin } from "./admin-flows.ts";
import { authorizePath, formOf, pkce, REDIRECT, validAuthorize } from "./oauth-flow.ts";
import type { TestStack } from "./stack-helpers.ts";
import type { FlowApp } from "./user-flows.ts";

// Social sign-in through an in-process stack (app.inject) against a REAL
// upstream provider (oidc-provider on loopback, its development login and
// consent pages driven over HTTP with a cookie jar).

export const CALLBACK = "http://gatehouse.test/oauth2/idp/callback";

/** Registers `idp` as provider `key` (a fresh key has a fresh configuration: its own JWKS cache). */
export async function registerProvider(
  s: TestStack,
  idp: UpstreamIdp,
  key: string,
  extra: Record<string, unknown> = {},
) {
  const res = await admin(s, "POST", "/admin/v1/identity-providers", {
    body: {
      key,
      displayName: "Upstream ID",
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      ...extra,
    },
  });
  if (res.statusCode !== 201) throw new Error(`provider: ${res.statusCode} ${res.body}`);
}

type Inject = Awaited<ReturnType<TestStack["app"]["inject"]>>;

const cookieOf = (res: { headers: Record<string, unknown> }, name: string): string | undefined => {
  const set = res.headers["set-cookie"];
  for (const c of Array.isArray(set) ? set : set ? [String(set)] : []) {
    const pair = String(c).split(";")[0]!;
    if (pair.startsWith(`${name}=`)) return pair;
  }
  return undefined;
};

/** The hosted login page of an authorization request, and its form (token and CSRF cookie). */
export async function loginPage(s: TestStack, app: FlowApp, entrypoint: string, extra: Record<string, string> = {}) {
  const { verifier, challenge } = pkce();
  const params = validAuthorize(app, challenge, { entrypoint, ...extra });
  const page = await s.app.inject({ method: "GET", url: authorizePath(params) });
  if (page.statusCode !== 200) throw new Error(`authorize: ${page.statusCode} ${page.body}`);
  return { page, form: formOf(page), verifier, params };
}

/** Posts a hosted form as the browser would (the page's CSRF cookie, plus the callback's when given). */
export function postForm(s: TestStack, cookie: string, fields: Record<string, string>) {
  return s.app.inject({
    method: "POST",
    url: "/oauth2/authorize",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    payload: new URLSearchParams(fields).toString(),
  });
}

/**
 * At the provider: follows its redirects with a cookie jar, signs in as
 * `login` (or cancels: access_denied) and consents, until it redirects to
 * Gatehouse's callback; answers that URL.
 */
export async function atProvider(
  authorizationUrl: string,
  login: string,
  opts: { abort?: boolean; callback?: string } = {},
): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  let method = "GET";
  let body: string | undefined;
  for (let hop = 0; hop < 20; hop++) {
    if (url.startsWith(opts.callback ?? CALLBACK)) return url;
    const res = await fetch(url, {
      method,
      redirect: "manual",
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
        ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      body,
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair!.indexOf("=");
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    method = "GET";
    body = undefined;
    const location = res.headers.get("location");
    if (location) {
      url = new URL(location, url).href;
      continue;
    }
    const html = await res.text();
    const action = /action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`provider page without a form: ${res.status} ${html.slice(0, 300)}`);
    const uid = /\/interaction\/([^/"]+)/.exec(action)?.[1];
    if (opts.abort && uid) {
      url = new URL(`/interaction/${uid}/abort`, url).href;
      continue;
    }
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1] ?? "login";
    url = new URL(action, url).href;
    method = "POST";
    body = new URLSearchParams(prompt === "login" ? { prompt, login, password: "any" } : { prompt }).toString();
  }
  throw new Error("the provider never returned to the callback");
}

/** The callback as the browser reaches it: with the cookie the provider button set. */
export function callback(
  s: TestStack,
  url: string,
  idpCookie: string | undefined,
  csrfCookie: string,
): Promise<Inject> {
  return s.app.inject({
    method: "GET",
    url: url.slice(new URL(url).origin.length),
    headers: { cookie: [idpCookie, csrfCookie].filter(Boolean).join("; ") },
  });
}

/** The whole round trip from the login page's provider button; answers the callback's response and the page's cookies. */
export async function socialSignIn(
  s: TestStack,
  app: FlowApp,
  entrypoint: string,
  provider: string,
  login: string,
  opts: { abort?: boolean; tamper?: (url: string) => string; callback?: string } = {},
) {
  const { form, verifier } = await loginPage(s, app, entrypoint);
  const started = await postForm(s, form.cookie, { form_token: form.token, intent: "login", idp: provider });
  if (started.statusCode !== 303) throw new Error(`idp button: ${started.statusCode} ${started.body}`);
  const idpCookie = cookieOf(started, "gh_idp");
  const back = await atProvider(String(started.headers.location), login, opts);
  const res = await callback(s, opts.tamper ? opts.tamper(back) : back, idpCookie, form.cookie);
  return { res, verifier, csrf: form.cookie, authorizationUrl: String(started.headers.location) };
}

/** The code of a finished hosted login (303 to the client's redirect URI). */
export function codeOf(res: Inject): string {
  if (res.statusCode !== 303)
    throw new Error(`expected the redirect with the code: ${res.statusCode} ${res.body.slice(0, 500)}`);
  const location = new URL(String(res.headers.location));
  if (`${location.origin}${location.pathname}` !== REDIRECT) throw new Error(`redirect to ${location}`);
  return location.searchParams.get("code") ?? "";
}

/** The hidden inputs of a page's form (tokens: nothing to unescape). */
export function hiddenOf(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) out[m[1]!] = m[2]!;
  return out;
}
