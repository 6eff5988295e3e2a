import fc from "fast-check";
import { validApplication } from "../stack-helpers.ts";
import { hostileString, schemaArb, type Schema } from "./arbitraries.ts";

// Requests for every operation of the OpenAPI document: path, query, headers
// and body generated from its schemas, with the real tokens and ids of a
// running stack mixed in so that the cases reach the services and the
// databases, and with hostile bytes where a careless parser would let them in.

export interface FuzzContext {
  operatorToken: string;
  appToken: string;
  userToken: string;
  clientId: string;
  clientSecret: string;
  entrypoint: string;
  redirectUri: string;
  userId: string;
  pulseId: string;
  assertionKey: string;
  origin: string;
}

export interface Operation {
  method: string;
  path: string;
  op: Schema;
}

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

/** Every operation of the document, in document order. */
export function operations(doc: Schema): Operation[] {
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
    for (const [method, op] of Object.entries(ops)) out.push({ method: method.toUpperCase(), path, op });
  }
  return out;
}

/** Percent-encodes the UTF-8 bytes of `s`; a lone surrogate becomes its (invalid) three-byte form. */
export function pct(s: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    if (pair) {
      bytes.push(...Buffer.from(s.slice(i, i + 2), "utf8"));
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else bytes.push(...Buffer.from(s[i]!, "utf8"));
  }
  return bytes.map((b) => (/[A-Za-z0-9._~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`)).join("");
}

/** Percent sequences that decode to nothing valid: NUL, bad UTF-8, an encoded surrogate, an overlong NUL, bad escapes. */
const RAW_BAD = ["%00", "%FF", "%C3%28", "%ED%A0%80", "%C0%80", "%E2%82", "%zz", "%", "a%00b"];

/** A URL component: mostly `good`, else hostile text (encoded) or raw bad escapes. */
function component(good: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: good.map(pct) },
    { weight: 2, arbitrary: hostileString.map(pct) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_BAD) },
  );
}

const asText = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v) ?? "");

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
function formString(ctx: FuzzContext, path: string): fc.Arbitrary<string> {
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

/** Realistic JSON members by path, from the running stack and the contract's shapes. */
function jsonHints(ctx: FuzzContext, path: string): Record<string, fc.Arbitrary<unknown>> {
  const asApp = /\/(register|access)/.test(path);
  const word = fc.stringMatching(/^[a-z][a-z0-9]{2,9}$/);
  // realistic mostly, hostile (a string all the same) one time in six
  const spoiled = <T>(good: fc.Arbitrary<T>) => fc.oneof({ weight: 5, arbitrary: good }, { weight: 1, arbitrary: hostileString });
  const text = spoiled(fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,11}$/));
  const email = spoiled(word.map((w) => `${w}@example.com`));
  const member = (objectType: string, value: fc.Arbitrary<unknown>) => fc.record({ objectType: fc.constant(objectType), value });
  const sample = validApplication();
  return {
    "actor.id": fc.oneof({ weight: 9, arbitrary: fc.constant(asApp ? ctx.clientId : path.includes("pulse-id") ? ctx.pulseId : ctx.userId) }, { weight: 1, arbitrary: fc.constantFrom(ctx.clientId, ctx.userId) }),
    "object.ids": path.includes("/access")
      ? fc.record({ email: member("user_id", email) })
      : fc.record({ email: member("user_id", email), phone_number: member("user_id", spoiled(fc.constant("+34600111222"))) }, { requiredKeys: ["email"] }),
    "object.datas": fc.record({ name: member("data", text), birthday: member("data", spoiled(fc.constant("1990-01-31"))) }, { requiredKeys: [] }),
    "object.addresses": fc.record(
      { home: fc.record({ objectType: fc.constant("address"), streetAddress: text, postalCode: spoiled(fc.constant("28001")), addressLocality: text, addressCountry: spoiled(fc.constant("ES")) }, { requiredKeys: ["objectType"] }) },
      { requiredKeys: [] },
    ),
    "object.assertions": fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fc.record({ [ctx.assertionKey]: member("assertion", fc.boolean()) }) }),
    "object.password": fc.constantFrom("correct horse battery", "wrong password 1"),
    "context.url": fc.constantFrom(ctx.redirectUri, "https://evil.example/"),
    // POST /v2/apps and the admin API: the catalog keys of the default catalog
    key: word,
    url: fc.constant("https://shop.example.com"),
    redirectUris: fc.constant([ctx.redirectUri]),
    organizationSchemaOrg: fc.constant({ identifier: "default" }),
    contact: fc.constant(sample.contact),
    "entrypoints.0.fields": fc.constant(sample.entrypoints[0].fields),
    "entrypoints.0.typology": fc.constant(sample.entrypoints[0].typology),
    typology: fc.constantFrom("consumer", "x"),
    property: fc.constant("default"),
    whitelist: fc.array(fc.oneof(fc.constant(ctx.redirectUri), hostileString), { maxLength: 2 }),
  };
}

/** The token a route expects, by its place in the contract (new routes fall into one of these). */
function expectedToken(ctx: FuzzContext, op: Operation): string | undefined {
  if (op.path.startsWith("/v2/") || op.path.startsWith("/admin/")) return ctx.operatorToken;
  if (/^\/activityid\/v1\/user\/(register|access)/.test(op.path)) return ctx.appToken;
  if (op.path.startsWith("/activityid/") || op.path === "/oauth2/userinfo") return ctx.userToken;
  return undefined;
}

function authorization(ctx: FuzzContext, op: Operation): fc.Arbitrary<string | undefined> {
  const b64 = (s: string) => Buffer.from(s, "latin1").toString("base64");
  const expected = expectedToken(ctx, op);
  return fc.oneof(
    { weight: expected ? 12 : 0, arbitrary: fc.constant(expected ? `Bearer ${expected}` : undefined) },
    { weight: op.path.startsWith("/oauth2/") ? 6 : 0, arbitrary: fc.constant(`Basic ${b64(`${ctx.clientId}:${ctx.clientSecret}`)}`) },
    { weight: 2, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom(ctx.operatorToken, ctx.appToken, ctx.userToken).map((t) => `Bearer ${t}`) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(`Basic ${b64("\u0000:\u0000")}`, `Basic ${b64("%00:%00")}`, `Basic ${b64("\u00ff\u00fe:x")}`, "Basic !!", "Bearer \u00e9", "Bearer a.b.c"),
    },
  );
}

/** Raw bodies a JSON parser must refuse cleanly: bad UTF-8, too deep, truncated, empty. */
const RAW_JSON_BODIES: (string | Buffer)[] = [
  Buffer.concat([Buffer.from('{"objectType":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
  Buffer.concat([Buffer.from('{"a'), Buffer.from([0xc3, 0x28]), Buffer.from('":1}')]),
  Buffer.concat([Buffer.from('{"x":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]),
  "[".repeat(20_000) + "]".repeat(20_000),
  '{"a":'.repeat(5_000) + "1" + "}".repeat(5_000),
  '{"objectType":',
  "",
  "null",
  '{"key":"\\u0000"}',
  '{"\\u0000":1}',
  '{"key":"\\ud800"}',
];

function jsonBody(ctx: FuzzContext, path: string, schema: Schema | undefined, resolve: (ref: string) => Schema | undefined): fc.Arbitrary<string | Buffer> {
  const hints = jsonHints(ctx, path);
  // Each case is clean (reaches the services with valid values), carries hostile strings that pass
  // the schema (what reaches the database), or is mangled at any depth (what the validation must catch).
  const value = fc
    .constantFrom({ hostility: 0, stringHostility: 0 }, { hostility: 0, stringHostility: 0.15 }, { hostility: 0, stringHostility: 0.15 }, { hostility: 0.05, stringHostility: 0.1 })
    .chain((level) => schemaArb(schema, { resolve, hints, ...level }));
  return fc.oneof(
    { weight: 9, arbitrary: value.map((v) => JSON.stringify(v) ?? "") },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_JSON_BODIES) },
  );
}

/** An arbitrary request for `op`. */
export function requestArb(ctx: FuzzContext, op: Operation, resolve: (ref: string) => Schema | undefined): fc.Arbitrary<FuzzRequest> {
  const params = (op.op.parameters ?? []) as Schema[];
  const known: Record<string, string[]> = {
    id: op.path.includes("pulse-id") ? [ctx.pulseId] : op.path.startsWith("/activityid/") ? [ctx.userId] : [ctx.clientId],
    client_id: [ctx.clientId, ctx.entrypoint],
    key: [ctx.assertionKey],
    entrypoint_id: [ctx.entrypoint],
  };
  const pathArbs = Object.fromEntries(
    params
      .filter((p) => p.in === "path")
      .map((p) => [p.name as string, component(fc.oneof(fc.constantFrom(...(known[p.name] ?? ["1"])), schemaArb(p.schema, { resolve, hostility: 0 }).map(asText)))]),
  );
  const declaredQuery = params.filter((p) => p.in === "query");
  const freeQuery = op.method === "GET" && declaredQuery.length === 0 && !op.path.startsWith("/.well-known");
  const queryArb: fc.Arbitrary<string> = freeQuery
    ? formString(ctx, op.path)
    : fc
        .tuple(
          ...declaredQuery.map((p) =>
            fc.option(component(schemaArb(p.schema, { resolve, hostility: 0 }).map(asText)).map((v) => `${p.name}=${v}`), { freq: 2 }),
          ),
          fc.option(fc.tuple(component(fc.constantFrom("token", "x")), component(fc.string({ maxLength: 5 }))).map(([k, v]) => `${k}=${v}`), { freq: 6 }),
        )
        .map((parts) => parts.filter((x): x is string => x !== null).join("&"));

  const jsonSchema = op.op.requestBody?.content?.["application/json"]?.schema as Schema | undefined;
  const takesForm = op.method === "POST" && !jsonSchema && (op.path.startsWith("/oauth2/") || op.path.endsWith("/terms"));
  const bodyArb: fc.Arbitrary<{ payload?: string | Buffer; type?: string }> = jsonSchema
    ? jsonBody(ctx, op.path, jsonSchema, resolve).map((payload) => ({ payload, type: "application/json" }))
    : takesForm
      ? fc.oneof(
          { weight: 9, arbitrary: formString(ctx, op.path).map((payload) => ({ payload, type: "application/x-www-form-urlencoded" })) },
          { weight: 1, arbitrary: fc.constant({ payload: '{"client_id":"\\u0000"}', type: "application/json" }) },
        )
      : fc.constant({});

  const hasFrom = params.some((p) => p.in === "header" && p.name === "from");
  const headerArb = fc.record({
    authorization: authorization(ctx, op),
    from: hasFrom
      ? fc.oneof({ weight: 8, arbitrary: fc.constant(ctx.entrypoint) }, { weight: 2, arbitrary: fc.constantFrom("web", "x".repeat(300), "caf\u00e9", "%00") })
      : fc.constant(undefined),
    accept: fc.oneof({ weight: 8, arbitrary: fc.constant("application/json") }, { weight: 1, arbitrary: fc.constantFrom("*/*", "text/html") }),
    "accept-language": fc.constantFrom("es", "en", "xx;q=abc"),
    origin: fc.constantFrom(ctx.origin, ctx.origin, "https://evil.example", "null"),
  });

  return fc.record({ path: fc.record(pathArbs), query: queryArb, body: bodyArb, headers: headerArb }).map(({ path, query, body, headers }) => {
    const url = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => path[name] ?? "1") + (query ? `?${query}` : "");
    const h: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) if (v !== undefined && (k !== "origin" || op.method !== "GET")) h[k] = v;
    if (body.type) h["content-type"] = body.type;
    return { method: op.method, url, headers: h, payload: body.payload };
  });
}
