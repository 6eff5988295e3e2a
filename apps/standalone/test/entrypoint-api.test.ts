import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostedApp, outboxMessage, type HostedApp } from "./hosted-flows.ts";
import { REDIRECT } from "./oauth-flow.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { PASSWORD, send, SOURCE } from "./user-flows.ts";

// Contract section 8 by API, on both stores: code sign-in (POST
// /activityid/v1/user/access/code, then /user/access with object.code),
// useForValidation, passwordless and assisted entry points.
describe.each([
  ["PostgreSQL + Redis", false],
  ["the embedded default", true],
])("entry points by API on %s", (_name, embedded) => {
  let s: TestStack;
  let app: HostedApp;
  beforeAll(async () => {
    s = await startTestStack({ embedded });
    app = await hostedApp(s, [REDIRECT]);
  });
  afterAll(() => s.close());

  const email = (tag: string) =>
    `${tag}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
  const post = (path: string, ep: string, body: unknown, headers: Record<string, string | undefined> = {}) =>
    send(s, "POST", `/activityid/v1/user/${path}`, app.token, app.eps[ep] ?? ep, body, headers);
  const askCode = (ep: string, address: string, headers: Record<string, string | undefined> = {}) =>
    post(
      "access/code",
      ep,
      { objectType: "access_code", ids: { email: { objectType: "user_id", value: address } } },
      headers,
    );
  const login = (ep: string, address: string, object: Record<string, unknown>) =>
    post("access", ep, {
      actor: { id: app.id, objectType: "application" },
      verb: "access",
      object: { objectType: "user", ids: { email: { objectType: "user_id", value: address } }, ...object },
      source: SOURCE,
    });
  async function register(
    ep: string,
    address: string,
    opts: { password?: string | null; name?: string; terms?: boolean } = {},
  ) {
    const object = {
      objectType: "user",
      ...(opts.password === null ? {} : { password: opts.password ?? PASSWORD }),
      ids: { email: { objectType: "user_id", value: address } },
      datas: { name: { objectType: "data", value: opts.name ?? "Ana" } },
      assertions: opts.terms === false ? {} : { [app.terms]: { objectType: "assertion", value: true } },
    };
    return post("register", ep, {
      actor: { id: app.id, objectType: "application" },
      verb: "create",
      object,
      source: SOURCE,
    });
  }
  /** A registered user of `shop` whose email is confirmed by its link. */
  async function confirmed(address = email("user")) {
    expect((await register("shop", address)).statusCode).toBe(201);
    const msg = await outboxMessage(s, address, /Confirm your account/);
    expect(
      (await s.app.inject({ method: "GET", url: new URL(msg.link!).pathname + new URL(msg.link!).search })).statusCode,
    ).toBe(302);
    return address;
  }
  const signInCode = async (address: string, after: number) =>
    (await outboxMessage(s, address, /Your sign-in code/, after)).code;

  it("POST /access/code: 202 with the same body whether or not the user exists; then object.code logs in, once", async () => {
    const address = await confirmed();
    const before = Date.now();
    const unknown = await askCode("shop", email("nobody"));
    const known = await askCode("shop", address);
    expect(unknown.statusCode).toBe(202);
    expect(known.statusCode).toBe(202);
    expect(known.json().content).toEqual(unknown.json().content);
    expect(known.json().content).toEqual({ objectType: "access_code", expires_in: 600 });
    expect(known.headers["cache-control"]).toBe("no-store");
    const code = await signInCode(address, before);
    expect(code).toMatch(/^\d{6}$/);

    const ok = await login("shop", address, { code });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().content.session_info.login_status.connect_state).toBe("connected");
    const again = await login("shop", address, { code });
    const stranger = await login("shop", email("nobody"), { code });
    expect(again.statusCode).toBe(403);
    expect(again.json().errors.code).toBe("invalid_credentials");
    const strip = (b: { result: Record<string, unknown> }) => ({ ...b, result: { status: b.result.status } });
    expect(strip(stranger.json())).toEqual(strip(again.json()));
  });

  it("POST /access/code: 400 for a malformed body, 401 without the APP_TOKEN, 403 for a foreign From, 429 per value whoever holds it", async () => {
    const bad = [
      { objectType: "user", ids: { email: { objectType: "user_id", value: "a@b.co" } } },
      { objectType: "access_code", ids: {} },
      {
        objectType: "access_code",
        ids: {
          email: { objectType: "user_id", value: "a@b.co" },
          phone_number: { objectType: "user_id", value: "+34600000000" },
        },
      },
      { objectType: "access_code", ids: { email: { objectType: "user_id", value: "not an email" } } },
      { objectType: "access_code", ids: { email: { objectType: "user_id", value: "a@b.co" } }, extra: 1 },
    ];
    for (const body of bad) {
      const res = await post("access/code", "shop", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors.items.length).toBeGreaterThan(0);
    }
    expect((await askCode("shop", "x@b.co", { authorization: undefined })).statusCode).toBe(401);
    expect((await askCode("100000000000_nope", "x@b.co")).statusCode).toBe(403);
    for (const address of [await confirmed(), email("nobody")]) {
      for (let i = 0; i < 5; i++) expect((await askCode("shop", address)).statusCode).toBe(202);
      const over = await askCode("shop", address);
      expect(over.statusCode).toBe(429);
      expect(over.json().errors.code).toBe("rate_limited");
      expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
    }
  });

  it("/access: a password and a code together, or neither, is 400; a wrong code is 403", async () => {
    const address = await confirmed();
    const both = await login("shop", address, { password: PASSWORD, code: "123456" });
    expect(both.statusCode).toBe(400);
    expect(both.json().errors.items).toEqual([expect.objectContaining({ field: "object.code", code: "not_allowed" })]);
    const neither = await login("shop", address, {});
    expect(neither.statusCode).toBe(400);
    expect(neither.json().errors.items).toEqual([
      expect.objectContaining({ field: "object.password", code: "required" }),
    ]);
    expect((await login("shop", address, { code: "123456" })).statusCode).toBe(403);
  });

  it("useForValidation: without the value or with another, 403 (a try spent); with it, 200", async () => {
    const address = email("checked");
    expect((await register("checked", address, { name: "Lucía" })).statusCode).toBe(201);
    const before = Date.now();
    expect((await askCode("checked", address)).statusCode).toBe(202);
    const code = await signInCode(address, before);
    const name = (value: string) => ({ name: { objectType: "data", value } });
    expect((await login("checked", address, { code })).statusCode).toBe(403);
    expect((await login("checked", address, { code, datas: name("Lucas") })).statusCode).toBe(403);
    const bad = await login("checked", address, { code, datas: { surname: { objectType: "data", value: "X" } } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({
      items: [expect.objectContaining({ field: "object.datas.surname", code: "not_allowed" })],
      details:
        "object.datas.surname: not_allowed (only this entry point's useForValidation fields go with a code (name))",
    });
    const ok = await login("checked", address, { code, datas: name("LUCÍA") });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it("passwordless: a password at registration is 400; the registration's code signs in; later, codes only", async () => {
    const address = email("nopass");
    const refused = await register("nopass", address);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.items).toEqual([
      expect.objectContaining({ field: "object.password", code: "not_allowed" }),
    ]);
    const created = await register("nopass", address, { password: null });
    expect(created.statusCode).toBe(201);
    expect(created.json().content.session_info).toBeUndefined();
    const { code } = await outboxMessage(s, address, /Confirm your account/);
    const first = await login("nopass", address, { code });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().content.user.ids.email.confirmed).toBe(true);
    expect((await login("nopass", address, { password: PASSWORD })).statusCode).toBe(403);
    const before = Date.now();
    expect((await askCode("nopass", address)).statusCode).toBe(202);
    expect((await login("nopass", address, { code: await signInCode(address, before) })).statusCode).toBe(200);
  });

  it("assisted: no password at registration; 412 until the activation page sets it; then 200; the link works once", async () => {
    const address = email("assisted");
    expect((await register("assisted", address)).statusCode).toBe(400);
    const created = await register("assisted", address, { password: null });
    expect(created.statusCode).toBe(201);
    expect(created.json().content.session_info).toBeUndefined();
    const early = await login("assisted", address, { password: "whatever it is" });
    expect(early.statusCode).toBe(412);
    expect(early.json().errors.code).toBe("user_unconfirmed");
    expect(early.json().content.url).toMatch(/\/activityid\/v1\/user\/confirm\/resend\?token=/);

    const { link } = await outboxMessage(s, address, /Activate your account/);
    const url = new URL(link!);
    expect(url.pathname).toBe("/activityid/v1/user/activate");
    const page = await s.app.inject({ method: "GET", url: url.pathname + url.search });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
    expect(page.body).toContain(address);
    const form = (password: string, origin = s.config.publicBaseUrl) =>
      s.app.inject({
        method: "POST",
        url: "/activityid/v1/user/activate",
        headers: { "content-type": "application/x-www-form-urlencoded", origin },
        payload: new URLSearchParams({ token: url.searchParams.get("token")!, password }).toString(),
      });
    expect((await form(PASSWORD, "https://evil.example")).statusCode).toBe(403);
    expect((await form("short")).statusCode).toBe(400);
    expect((await login("assisted", address, { password: PASSWORD })).statusCode).toBe(412);
    const done = await form(PASSWORD);
    expect(done.statusCode).toBe(200);
    const ok = await login("assisted", address, { password: PASSWORD });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().content.user.ids.email.confirmed).toBe(true);
    expect((await form(PASSWORD)).statusCode).toBe(400);
    expect((await s.app.inject({ method: "GET", url: url.pathname + url.search })).statusCode).toBe(400);
  });

  it("code sign-in passes through the same interruptions: 451 for terms not accepted", async () => {
    const address = email("terms");
    expect((await register("checked", address, { terms: false, name: "Ana" })).statusCode).toBe(201);
    const before = Date.now();
    await askCode("checked", address);
    const res = await login("checked", address, {
      code: await signInCode(address, before),
      datas: { name: { objectType: "data", value: "Ana" } },
    });
    expect(res.statusCode).toBe(451);
    expect(res.json().content.assertions.items.map((i: { key: string }) => i.key)).toContain(app.terms);
  });
});
