import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, validApplication, type TestStack } from "../stack-helpers.ts";
import { createApp, loggedUser, registerEnvelope, send, type FlowApp, type LoggedUser } from "../user-flows.ts";

// Issue 15 finding 1: a NUL byte or invalid text (bad UTF-8, a lone
// surrogate) anywhere in a request is a 400 at the edge, in the contract
// envelope (RFC 6749 form on /oauth2/*), and changes nothing. Each shape
// below answered 500 (PostgreSQL 22021) before.

interface Shape {
  name: string;
  oauth?: boolean;
  request: (c: Ctx) => InjectOptions;
}

interface Ctx {
  op: string;
  app: FlowApp;
  user: LoggedUser;
  basic: (id: string, secret: string) => string;
}

const form = "application/x-www-form-urlencoded";
const json = (token: string, from?: string) => ({
  authorization: `Bearer ${token}`,
  "content-type": "application/json",
  accept: "application/json",
  ...(from ? { from } : {}),
});
const b64 = (s: string) => `Basic ${Buffer.from(s, "utf8").toString("base64")}`;
const withName = (app: FlowApp, value: string, email = "nul@example.com") => {
  const body = registerEnvelope(app, email);
  body.object.datas.name.value = value;
  return body;
};

const SHAPES: Shape[] = [
  {
    name: "GET /v2/apps/%00",
    request: (c) => ({ method: "GET", url: "/v2/apps/%00", headers: { authorization: `Bearer ${c.op}` } }),
  },
  {
    name: "GET /v2/apps/%FF (bad UTF-8 in a path)",
    request: (c) => ({ method: "GET", url: "/v2/apps/%FF", headers: { authorization: `Bearer ${c.op}` } }),
  },
  {
    name: "GET /admin/v1/apps/%00",
    request: (c) => ({ method: "GET", url: "/admin/v1/apps/%00", headers: { authorization: `Bearer ${c.op}` } }),
  },
  {
    name: "GET /admin/v1/apps/%00/password",
    request: (c) => ({
      method: "GET",
      url: "/admin/v1/apps/%00/password",
      headers: { authorization: `Bearer ${c.op}` },
    }),
  },
  {
    name: "PATCH /admin/v1/apps/%00",
    request: (c) => ({ method: "PATCH", url: "/admin/v1/apps/%00", headers: json(c.op), payload: { mfa: "off" } }),
  },
  {
    name: "GET /admin/v1/assertions?typology=%00",
    request: (c) => ({
      method: "GET",
      url: "/admin/v1/assertions?typology=%00",
      headers: { authorization: `Bearer ${c.op}` },
    }),
  },
  {
    name: "GET /admin/v1/assertions/%ED%A0%80 (encoded surrogate)",
    request: (c) => ({
      method: "GET",
      url: "/admin/v1/assertions/%ED%A0%80",
      headers: { authorization: `Bearer ${c.op}` },
    }),
  },
  {
    name: "POST /v2/apps with a NUL in displayName",
    request: (c) => ({
      method: "POST",
      url: "/v2/apps",
      headers: json(c.op),
      payload: { ...validApplication(), key: "nulapp", displayName: "Shop\u0000" },
    }),
  },
  {
    name: "POST /v2/apps with a lone surrogate in displayName",
    request: (c) => ({
      method: "POST",
      url: "/v2/apps",
      headers: json(c.op),
      payload: JSON.stringify({ ...validApplication(), key: "surrapp" }).replace('"Shop"', '"Sh\\ud800op"'),
    }),
  },
  {
    name: "register: NUL in datas",
    request: (c) => ({
      method: "POST",
      url: "/activityid/v1/user/register",
      headers: json(c.app.token, c.app.entrypoint),
      payload: withName(c.app, "A\u0000na"),
    }),
  },
  {
    name: "register: NUL in an id",
    request: (c) => ({
      method: "POST",
      url: "/activityid/v1/user/register",
      headers: json(c.app.token, c.app.entrypoint),
      payload: registerEnvelope(c.app, "nul\u0000@example.com"),
    }),
  },
  {
    name: "register: NUL in an address",
    request: (c) => {
      const body: any = registerEnvelope(c.app, "addr@example.com");
      body.object.addresses = { home: { objectType: "address", streetAddress: "Main\u0000 St", addressCountry: "ES" } };
      return {
        method: "POST",
        url: "/activityid/v1/user/register",
        headers: json(c.app.token, c.app.entrypoint),
        payload: body,
      };
    },
  },
  {
    name: "register: NUL in a key",
    request: (c) => ({
      method: "POST",
      url: "/activityid/v1/user/register",
      headers: json(c.app.token, c.app.entrypoint),
      payload: JSON.stringify(registerEnvelope(c.app, "key@example.com")).replace('"name":', '"na\\u0000me":'),
    }),
  },
  {
    name: "register: bad UTF-8 bytes in the body",
    request: (c) => ({
      method: "POST",
      url: "/activityid/v1/user/register",
      headers: json(c.app.token, c.app.entrypoint),
      payload: Buffer.from(
        JSON.stringify(withName(c.app, "@@", "bytes@example.com")).replace("@@", "\u00ff"),
        "latin1",
      ),
    }),
  },
  {
    name: "patch: NUL in datas",
    request: (c) => ({
      method: "PATCH",
      url: `/activityid/v1/user/update/${c.user.id}`,
      headers: json(c.user.accessToken, c.app.entrypoint),
      payload: {
        actor: { id: c.user.id, objectType: "person" },
        verb: "update",
        object: { objectType: "user", datas: { name: { objectType: "data", value: "\u0000" } } },
        source: { id: "pc", objectType: "device" },
      },
    }),
  },
  {
    name: "patch: NUL in the path id",
    request: (c) => ({
      method: "PATCH",
      url: "/activityid/v1/user/update/%00",
      headers: json(c.user.accessToken, c.app.entrypoint),
      payload: {},
    }),
  },
  {
    name: "login: NUL in the email",
    request: (c) => ({
      method: "POST",
      url: "/activityid/v1/user/access",
      headers: json(c.app.token, c.app.entrypoint),
      payload: {
        actor: { id: c.app.id, objectType: "application" },
        verb: "access",
        object: {
          objectType: "user",
          password: "x",
          ids: { email: { objectType: "user_id", value: "a\u0000@example.com" } },
        },
        source: { id: "pc", objectType: "device" },
      },
    }),
  },
  {
    name: "GET /activityid/v1/user/confirm?token=%00",
    request: () => ({ method: "GET", url: "/activityid/v1/user/confirm?token=%00" }),
  },
  {
    name: "GET /activityid/v1/user/confirm/resend?token=%00",
    request: () => ({ method: "GET", url: "/activityid/v1/user/confirm/resend?token=%00" }),
  },
  {
    name: "POST /activityid/v1/user/terms token=%00",
    request: () => ({
      method: "POST",
      url: "/activityid/v1/user/terms",
      headers: { "content-type": form },
      payload: "token=%00",
    }),
  },
  {
    name: "POST /oauth2/token client_id=%00",
    oauth: true,
    request: () => ({
      method: "POST",
      url: "/oauth2/token",
      headers: { "content-type": form },
      payload: "grant_type=client_credentials&client_id=%00&client_secret=x",
    }),
  },
  {
    name: "POST /oauth2/token client_id=%FF",
    oauth: true,
    request: () => ({
      method: "POST",
      url: "/oauth2/token",
      headers: { "content-type": form },
      payload: "grant_type=client_credentials&client_id=%FF&client_secret=x",
    }),
  },
  {
    name: "POST /oauth2/token with bad UTF-8 bytes",
    oauth: true,
    request: () => ({
      method: "POST",
      url: "/oauth2/token",
      headers: { "content-type": form },
      payload: Buffer.concat([
        Buffer.from("grant_type=client_credentials&client_id="),
        Buffer.from([0xc3, 0x28]),
        Buffer.from("&client_secret=x"),
      ]),
    }),
  },
  {
    name: "GET /oauth2/authorize?client_id=%00",
    oauth: true,
    request: () => ({ method: "GET", url: "/oauth2/authorize?client_id=%00&response_type=code" }),
  },
  {
    name: "POST /oauth2/authorize email=%00",
    oauth: true,
    request: () => ({
      method: "POST",
      url: "/oauth2/authorize",
      headers: { "content-type": form },
      payload: "form_token=a.b&email=%00&password=x",
    }),
  },
  {
    name: "POST /oauth2/logout client_id=%00",
    oauth: true,
    request: () => ({
      method: "POST",
      url: "/oauth2/logout",
      headers: { "content-type": form },
      payload: "client_id=%00&post_logout_redirect_uri=x",
    }),
  },
];

// Basic credentials are decoded by client-auth (issue 10); the service boundary must still never answer 500.
const BASIC_SHAPES: Shape[] = [
  {
    name: "introspect with Basic \\0:\\0",
    oauth: true,
    request: (c) => ({
      method: "POST",
      url: "/oauth2/introspect",
      headers: { "content-type": form, authorization: b64("\u0000:\u0000") },
      payload: `token=${c.app.token}`,
    }),
  },
  {
    name: "revoke with Basic \\0:\\0",
    oauth: true,
    request: (c) => ({
      method: "POST",
      url: "/oauth2/revoke",
      headers: { "content-type": form, authorization: b64("\u0000:\u0000") },
      payload: `token=${c.app.token}`,
    }),
  },
  {
    name: "token with Basic %00:%00",
    oauth: true,
    request: (c) => ({
      method: "POST",
      url: "/oauth2/token",
      headers: { "content-type": form, authorization: c.basic("\u0000", "\u0000") },
      payload: "grant_type=client_credentials",
    }),
  },
];

describe.each([
  { mode: "embedded (PGlite)", embedded: true },
  { mode: "PostgreSQL + Redis", embedded: false },
])("NUL bytes and invalid text: $mode", ({ embedded }) => {
  let s: TestStack;
  let c: Ctx;
  beforeAll(async () => {
    s = await startTestStack({ embedded });
    const app = await createApp(s, "nul");
    c = { op: await s.operatorToken(), app, user: await loggedUser(s, app), basic: s.basic };
  });
  afterAll(() => s?.close());

  const users = async () =>
    (await s.stores.db.query<{ n: number }>("SELECT count(*)::int AS n FROM users.users")).rows[0]!.n;
  const apps = async () =>
    (await s.stores.db.query<{ n: number }>("SELECT count(*)::int AS n FROM registry.clients")).rows[0]!.n;

  it.each(SHAPES)("$name → 400 in its envelope", async (shape) => {
    const before = [await users(), await apps()];
    const res = await s.app.inject(shape.request(c));
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json();
    if (shape.oauth) {
      expect(body).toEqual({ error: "invalid_request", error_description: expect.any(String) });
    } else {
      expect(body.result.status).toBe(400);
      expect(["malformed_request", "validation_failed"]).toContain(body.errors.code);
      expect(body.errors.message).toEqual(expect.any(String));
      expect(body.errors.details).toEqual(expect.any(String));
      expect(body.errors.items).toEqual(expect.any(Array));
    }
    expect([await users(), await apps()]).toEqual(before);
  });

  it("names the field that carries the NUL", async () => {
    const res = await s.app.inject(SHAPES.find((x) => x.name === "register: NUL in datas")!.request(c));
    expect(res.json().errors.items).toEqual([
      { field: "object.datas.name.value", code: "invalid_text", message: expect.any(String) },
    ]);
    const es = await s.app.inject({
      ...SHAPES.find((x) => x.name === "register: NUL in datas")!.request(c),
      headers: { ...json(c.app.token, c.app.entrypoint), "accept-language": "es" },
    });
    expect(es.json().errors.items[0].message).toMatch(/[áéíóúñ]|carácter|texto/i);
  });

  it.each(BASIC_SHAPES)("$name → a 4xx OAuth error, never 500", async (shape) => {
    const res = await s.app.inject(shape.request(c));
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
    expect(res.statusCode, res.body).toBeLessThan(500);
    expect(res.json()).toEqual({
      error: expect.stringMatching(/^invalid_(request|client)$/),
      error_description: expect.any(String),
    });
  });

  it("answers JSON nested too deep with 400 and an oversized body with 413, in the envelope", async () => {
    for (const payload of [
      "[".repeat(30_000) + "]".repeat(30_000),
      '{"a":'.repeat(5_000) + "1" + "}".repeat(5_000),
      "[".repeat(33) + "]".repeat(33),
    ]) {
      const res = await s.app.inject({ method: "POST", url: "/v2/apps", headers: json(c.op), payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toMatchObject({
        code: "malformed_request",
        details: expect.stringMatching(/deeper than 32/),
      });
    }
    const big = await s.app.inject({
      method: "POST",
      url: "/v2/apps",
      headers: json(c.op),
      payload: JSON.stringify({ displayName: "x".repeat(70_000) }),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().errors.code).toBe("payload_too_large");
    const bigForm = await s.app.inject({
      method: "POST",
      url: "/oauth2/token",
      headers: { "content-type": form },
      payload: `scope=${"x".repeat(70_000)}`,
    });
    expect(bigForm.statusCode).toBeGreaterThanOrEqual(400);
    expect(bigForm.statusCode).toBeLessThan(500);
    expect(bigForm.json()).toEqual({ error: "invalid_request", error_description: expect.any(String) });
  });

  it("still accepts text that is merely unusual", async () => {
    const reg = await send(
      s,
      "POST",
      "/activityid/v1/user/register",
      c.app.token,
      c.app.entrypoint,
      withName(c.app, "Zoë 😀 \ufffd", "unusual@example.com"),
    );
    expect(reg.statusCode, reg.body).toBe(201);
    expect(reg.json().content.user.datas.name.value).toBe("Zoë 😀 \ufffd");
  });
});
