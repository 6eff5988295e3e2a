import fc from "fast-check";
import type { FuzzContext } from "./fuzz-context.ts";
import { component, pct } from "./encoding.ts";

// Form bodies and free query strings of the OAuth endpoints and hosted pages (their OpenAPI entries have no schema).

/** Values for the OAuth and hosted-page parameters (forms and query strings without a schema). */
function oauthParams(ctx: FuzzContext): Record<string, fc.Arbitrary<string>> {
  const s43 = fc.stringMatching(/^[A-Za-z0-9_-]{43}$/);
  return {
    grant_type: fc.constantFrom("client_credentials", "refresh_token", "authorization_code", "password", "urn:x"),
    client_id: fc.constantFrom(ctx.clientId, ctx.entrypoint, "123", "test-operator"),
    client_secret: fc.constantFrom(ctx.clientSecret, "wrong"),
    scope: fc.constantFrom("openid", "apps:write", "openid profile", ""),
    token: fc.constantFrom(ctx.appToken, ctx.userToken, "x.y.z"),
    token_type_hint: fc.constantFrom("access_token", "refresh_token", "x"),
    refresh_token: fc.constantFrom("r", ctx.userToken),
    code: fc.constantFrom("abc", "123456"),
    redirect_uri: fc.constantFrom(ctx.redirectUri, "https://evil.example/cb"),
    response_type: fc.constantFrom("code", "token"),
    state: fc.string({ maxLength: 12 }),
    code_challenge: s43,
    code_challenge_method: fc.constantFrom("S256", "plain"),
    code_verifier: s43,
    entrypoint: fc.constantFrom(ctx.entrypoint, "web"),
    prompt: fc.constantFrom("create", "login", "none"),
    ui_locales: fc.constantFrom("es", "en", "fr es"),
    nonce: fc.string({ maxLength: 12 }),
    form_token: fc.constantFrom("a.b", "x"),
    email: fc.constantFrom("ana@example.com"),
    password: fc.constantFrom("correct horse battery"),
    mfa_token: fc.constantFrom("m"),
    id_token_hint: fc.constantFrom(ctx.userToken, "x"),
    post_logout_redirect_uri: fc.constantFrom(ctx.redirectUri),
    shown: fc.constantFrom(ctx.assertionKey),
    accept: fc.constantFrom(ctx.assertionKey),
  };
}

/** The parameters a route needs to get past its first checks (each case drops or spoils some). */
function baseForm(ctx: FuzzContext, path: string): Record<string, string> {
  const authorize = {
    response_type: "code",
    client_id: ctx.clientId,
    redirect_uri: ctx.redirectUri,
    scope: "openid",
    state: "s",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGKSMJKaAw",
    code_challenge_method: "S256",
  };
  const bases: Record<string, Record<string, string>> = {
    "/oauth2/token": { grant_type: "client_credentials", client_id: ctx.clientId, client_secret: ctx.clientSecret },
    "/oauth2/introspect": { token: ctx.appToken, client_id: ctx.clientId, client_secret: ctx.clientSecret },
    "/oauth2/revoke": { token: ctx.appToken, client_id: ctx.clientId, client_secret: ctx.clientSecret },
    "/oauth2/authorize": authorize,
    "/oauth2/logout": { id_token_hint: ctx.userToken, post_logout_redirect_uri: ctx.redirectUri, client_id: ctx.clientId },
    "/activityid/v1/user/terms": { token: "t", shown: ctx.assertionKey, accept: ctx.assertionKey },
  };
  return bases[path] ?? {};
}

/** `name=value&...`: the route's base parameters, some dropped or spoiled, plus a few others (names may repeat). */
export function formString(ctx: FuzzContext, path: string): fc.Arbitrary<string> {
  const params = oauthParams(ctx);
  const base = Object.entries(baseForm(ctx, path)).map(([k, v]) =>
    fc.oneof(
      { weight: 6, arbitrary: fc.constant(`${k}=${pct(v)}`) },
      { weight: 4, arbitrary: component(params[k] ?? fc.constant(v)).map((x) => `${k}=${x}`) },
      { weight: 1, arbitrary: fc.constant("") },
    ),
  );
  const other = fc.oneof(
    { weight: 9, arbitrary: fc.constantFrom(...Object.keys(params)).chain((k) => component(params[k]!).map((v) => `${k}=${v}`)) },
    { weight: 1, arbitrary: fc.tuple(component(fc.string({ maxLength: 6 })), component(fc.string({ maxLength: 6 }))).map(([k, v]) => `${k}=${v}`) },
  );
  return fc.tuple(fc.tuple(...base), fc.array(other, { maxLength: base.length ? 2 : 6 })).map(([b, o]) => [...b, ...o].filter(Boolean).join("&"));
}
