import fc from "fast-check";
import { schemaArb, type Schema } from "./arbitraries.ts";
import { component } from "./encoding.ts";
import { formString, hostedFormString, HOSTED_INTENTS } from "./forms.ts";
import type { FuzzContext } from "./fuzz-context.ts";
import { jsonHints } from "./hints.ts";

// Requests for every operation of the OpenAPI document: path, query, headers
// and body generated from its schemas, with the real tokens and ids of a
// running stack mixed in so that the cases reach the services and the
// databases, and with hostile bytes where a careless parser would let them in.

export interface Operation {
  method: string;
  path: string;
  op: Schema;
  /** A hosted page's form posted to the authorization endpoint (its intent), not the request of the document. */
  form?: string;
}

/** The operation's name in reports. */
export const operationName = (o: Operation) => `${o.method} ${o.path}${o.form ? ` (${o.form} form)` : ""}`;

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

// Methods an OAuth endpoint does not document still answer (issue 10): 405
// with Allow, OPTIONS 204 or a CORS preflight, HEAD of a GET.
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** The undocumented methods of every OAuth endpoint, each with the endpoint's documented parameters. */
export function undocumentedMethods(ops: Operation[]): Operation[] {
  const byPath = new Map<string, Operation[]>();
  for (const o of ops)
    if (o.path.startsWith("/oauth2/") || o.path.startsWith("/.well-known/"))
      byPath.set(o.path, [...(byPath.get(o.path) ?? []), o]);
  return [...byPath].flatMap(([path, documented]) =>
    METHODS.filter((m) => !documented.some((o) => o.method === m)).map((method) => ({
      method,
      path,
      op: documented[0]!.op,
    })),
  );
}

/** The hosted pages' forms (contract sections 7 and 8), each posted back to /oauth2/authorize with a genuine form token. */
export function hostedFormOperations(ops: Operation[]): Operation[] {
  const post = ops.find((o) => o.path === "/oauth2/authorize" && o.method === "POST");
  return post ? HOSTED_INTENTS.map((form) => ({ ...post, form })) : [];
}

/** A browser posting a hosted form: mostly with the cookie its token is bound to, from our origin (or `null`, as our no-referrer pages do). */
function hostedFormArb(ctx: FuzzContext, op: Operation): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      payload: hostedFormString(ctx, op.form!),
      cookie: fc.constantFrom(ctx.formCookie, ctx.formCookie, ctx.formCookie, "gh_login_csrf=x", undefined),
      origin: fc.constantFrom("null", ctx.origin, ctx.origin, undefined, "https://evil.example"),
      lang: fc.constantFrom("es", "en", "xx;q=abc"),
    })
    .map(({ payload, cookie, origin, lang }) => {
      const headers: Record<string, string> = {
        "content-type": "application/x-www-form-urlencoded",
        accept: "text/html",
        "accept-language": lang,
      };
      if (cookie) headers.cookie = cookie;
      if (origin) headers.origin = origin;
      return { method: op.method, url: op.path, headers, payload };
    });
}

const asText = (v: unknown) => (typeof v === "string" ? v : (JSON.stringify(v) ?? ""));

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
    {
      weight: op.path.startsWith("/oauth2/") ? 6 : 0,
      arbitrary: fc.constant(`Basic ${b64(`${ctx.clientId}:${ctx.clientSecret}`)}`),
    },
    { weight: 2, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom(ctx.operatorToken, ctx.appToken, ctx.userToken).map((t) => `Bearer ${t}`) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        `Basic ${b64("\u0000:\u0000")}`,
        `Basic ${b64("%00:%00")}`,
        `Basic ${b64("\u00ff\u00fe:x")}`,
        "Basic !!",
        "Bearer \u00e9",
        "Bearer a.b.c",
      ),
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

function jsonBody(
  ctx: FuzzContext,
  path: string,
  schema: Schema | undefined,
  resolve: (ref: string) => Schema | undefined,
): fc.Arbitrary<string | Buffer> {
  const hints = jsonHints(ctx, path);
  // Each case is clean (reaches the services with valid values), carries hostile strings that pass
  // the schema (what reaches the database), or is mangled at any depth (what the validation must catch).
  const value = fc
    .constantFrom(
      { hostility: 0, stringHostility: 0 },
      { hostility: 0, stringHostility: 0.15 },
      { hostility: 0, stringHostility: 0.15 },
      { hostility: 0.05, stringHostility: 0.1 },
    )
    .chain((level) => schemaArb(schema, { resolve, hints, ...level }));
  return fc.oneof(
    { weight: 9, arbitrary: value.map((v) => JSON.stringify(v) ?? "") },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_JSON_BODIES) },
  );
}

/** An arbitrary request for `op`. */
export function requestArb(
  ctx: FuzzContext,
  op: Operation,
  resolve: (ref: string) => Schema | undefined,
): fc.Arbitrary<FuzzRequest> {
  if (op.form) return hostedFormArb(ctx, op);
  const params = (op.op.parameters ?? []) as Schema[];
  const users = op.path.startsWith("/activityid/") || op.path.startsWith("/admin/v1/users");
  const known: Record<string, string[]> = {
    id: op.path.includes("pulse-id") ? [ctx.pulseId] : users ? [ctx.userId, ctx.pulseId] : [ctx.clientId],
    client_id: [ctx.clientId, ctx.entrypoint],
    // A legal assertion's key, or a catalog item's (the default catalog's, and an unknown one).
    key: op.path.startsWith("/admin/v1/catalogs") ? ["default", "name", "consumer", "nokey"] : [ctx.assertionKey],
    kind: ["organizations", "brands", "properties", "fields", "typologies"],
    entrypoint_id: [ctx.entrypoint],
  };
  const pathArbs = Object.fromEntries(
    params
      .filter((p) => p.in === "path")
      .map((p) => [
        p.name as string,
        component(
          fc.oneof(
            fc.constantFrom(...(known[p.name] ?? ["1"])),
            schemaArb(p.schema, { resolve, hostility: 0 }).map(asText),
          ),
        ),
      ]),
  );
  const declaredQuery = params.filter((p) => p.in === "query");
  const freeQuery = op.method === "GET" && declaredQuery.length === 0 && !op.path.startsWith("/.well-known");
  const queryArb: fc.Arbitrary<string> = freeQuery
    ? formString(ctx, op.path)
    : fc
        .tuple(
          ...declaredQuery.map((p) =>
            fc.option(
              component(schemaArb(p.schema, { resolve, hostility: 0 }).map(asText)).map((v) => `${p.name}=${v}`),
              { freq: 2 },
            ),
          ),
          fc.option(
            fc
              .tuple(component(fc.constantFrom("token", "x")), component(fc.string({ maxLength: 5 })))
              .map(([k, v]) => `${k}=${v}`),
            { freq: 6 },
          ),
        )
        .map((parts) => parts.filter((x): x is string => x !== null).join("&"));

  const jsonSchema = op.op.requestBody?.content?.["application/json"]?.schema as Schema | undefined;
  const takesForm =
    !["GET", "HEAD", "OPTIONS"].includes(op.method) &&
    !jsonSchema &&
    (op.path.startsWith("/oauth2/") || op.path.endsWith("/terms") || op.path.endsWith("/activate"));
  const bodyArb: fc.Arbitrary<{ payload?: string | Buffer; type?: string }> = jsonSchema
    ? jsonBody(ctx, op.path, jsonSchema, resolve).map((payload) => ({ payload, type: "application/json" }))
    : takesForm
      ? fc.oneof(
          {
            weight: 9,
            arbitrary: formString(ctx, op.path).map((payload) => ({
              payload,
              type: "application/x-www-form-urlencoded",
            })),
          },
          { weight: 1, arbitrary: fc.constant({ payload: '{"client_id":"\\u0000"}', type: "application/json" }) },
        )
      : fc.constant({});

  const hasFrom = params.some((p) => p.in === "header" && p.name === "from");
  const headerArb = fc.record({
    authorization: authorization(ctx, op),
    from: hasFrom
      ? fc.oneof(
          { weight: 8, arbitrary: fc.constant(ctx.entrypoint) },
          { weight: 2, arbitrary: fc.constantFrom("web", "x".repeat(300), "caf\u00e9", "%00") },
        )
      : fc.constant(undefined),
    accept: fc.oneof(
      { weight: 8, arbitrary: fc.constant("application/json") },
      { weight: 1, arbitrary: fc.constantFrom("*/*", "text/html") },
    ),
    "accept-language": fc.constantFrom("es", "en", "xx;q=abc"),
    // Ours, a relying party's (its redirect URI's: CORS answers it), another site's.
    origin: fc.constantFrom(ctx.origin, ctx.origin, new URL(ctx.redirectUri).origin, "https://evil.example", "null"),
    "access-control-request-method":
      op.method === "OPTIONS"
        ? fc.constantFrom("POST", "GET", "DELETE", "caf\u00e9", undefined)
        : fc.constant(undefined),
  });

  return fc
    .record({ path: fc.record(pathArbs), query: queryArb, body: bodyArb, headers: headerArb })
    .map(({ path, query, body, headers }) => {
      const url = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => path[name] ?? "1") + (query ? `?${query}` : "");
      const h: Record<string, string> = {};
      for (const [k, v] of Object.entries(headers))
        if (v !== undefined && (k !== "origin" || op.method !== "GET")) h[k] = v;
      if (body.type) h["content-type"] = body.type;
      return { method: op.method, url, headers: h, payload: body.payload };
    });
}
