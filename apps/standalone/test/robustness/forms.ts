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
    form_token: fc.constantFrom(ctx.formToken, "a.b", "x"),
    email: fc.constantFrom("ana@example.com", ctx.userEmail),
    password: fc.constantFrom("correct horse battery", "short"),
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
    "/oauth2/logout": {
      id_token_hint: ctx.userToken,
      post_logout_redirect_uri: ctx.redirectUri,
      client_id: ctx.clientId,
    },
    "/activityid/v1/user/terms": { token: "t", shown: ctx.assertionKey, accept: ctx.assertionKey },
    "/activityid/v1/user/activate": { token: "t", password: "correct horse battery" },
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
    {
      weight: 9,
      arbitrary: fc.constantFrom(...Object.keys(params)).chain((k) => component(params[k]!).map((v) => `${k}=${v}`)),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(component(fc.string({ maxLength: 6 })), component(fc.string({ maxLength: 6 })))
        .map(([k, v]) => `${k}=${v}`),
    },
  );
  return fc
    .tuple(fc.tuple(...base), fc.array(other, { maxLength: base.length ? 2 : 6 }))
    .map(([b, o]) => [...b, ...o].filter(Boolean).join("&"));
}

/** The fields of each hosted page's form (hosted/authorize/hosted-login.ts: by `intent`; a `mfa_token` is the second step's). */
const HOSTED_FIELDS: Record<string, string[]> = {
  login: ["email", "phone_number", "password", "send_code"],
  code: ["email", "phone_number", "code", "send_code", "name"],
  register: ["email", "phone_number", "password", "name", "surname", "birthday", "assertion"],
  flow: [
    "flow_token",
    "page",
    "key",
    "to",
    "code",
    "resend",
    "shown",
    "missing",
    "assertion",
    "name",
    "birthday",
    "password",
  ],
  mfa: ["mfa_token", "code"],
};

export const HOSTED_INTENTS = Object.keys(HOSTED_FIELDS);

/** Values of the hosted pages' fields: plausible ones mostly (the handlers are under test), some hostile. */
function hostedValues(ctx: FuzzContext): Record<string, fc.Arbitrary<string>> {
  return {
    email: fc.constantFrom(ctx.userEmail, "ana@example.com", "not an email", ""),
    phone_number: fc.constantFrom("+34600111222", "12", ""),
    password: fc.constantFrom("correct horse battery", "short", ""),
    send_code: fc.constantFrom("1", ""),
    code: fc.constantFrom("123456", "12 34 56", "abc", ""),
    name: fc.string({ maxLength: 12 }),
    surname: fc.string({ maxLength: 12 }),
    birthday: fc.constantFrom("1990-01-02", "1990-13-45", "yesterday"),
    assertion: fc.constantFrom("on", "true", ""),
    flow_token: fc.constantFrom("f", "a.b.c", "x".repeat(300)),
    page: fc.constantFrom("confirm", "terms", "profile", "step2", "x"),
    key: fc.constantFrom("email", "phone_number", "x"),
    to: fc.constantFrom("ana@example.com", "<b>x</b>"),
    resend: fc.constantFrom("1", ""),
    shown: fc.constantFrom(ctx.assertionKey, `${ctx.assertionKey} other`, "a ".repeat(200)),
    missing: fc.constantFrom("name", "birthday name", "password", "x"),
    mfa_token: fc.constantFrom("m", "a.b"),
  };
}

/**
 * A hosted page's form posted back with the genuine form token (now and then
 * a bad one): `intent`, then some of that page's fields, each once, mostly
 * clean and percent-encoded, one in eight hostile.
 */
export function hostedFormString(ctx: FuzzContext, intent: string): fc.Arbitrary<string> {
  const values = hostedValues(ctx);
  const name = (f: string) => (f === "assertion" ? `assertion.${ctx.assertionKey}` : f);
  const field = (f: string) =>
    fc
      .oneof({ weight: 7, arbitrary: values[f]!.map(pct) }, { weight: 1, arbitrary: component(values[f]!) })
      .map((v) => `${name(f)}=${v}`);
  const fields = fc
    .uniqueArray(fc.constantFrom(...HOSTED_FIELDS[intent]!), { minLength: 1, maxLength: HOSTED_FIELDS[intent]!.length })
    .chain((fs) => fc.tuple(...fs.map(field)));
  const token = fc.oneof(
    { weight: 9, arbitrary: fc.constant(ctx.formToken) },
    { weight: 1, arbitrary: fc.constantFrom("a.b", `${ctx.formToken}x`) },
  );
  return fc
    .tuple(token, fields)
    .map(([t, fs]) => [`form_token=${pct(t)}`, ...(intent === "mfa" ? [] : [`intent=${intent}`]), ...fs].join("&"));
}
