import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import {
  createApp,
  loginEnvelope,
  outboxCode,
  outboxLinks,
  registerEnvelope,
  send as sendAs,
  SOURCE as source,
  type FlowApp,
} from "./user-flows.ts";

// Registration, confirmation by the emailed link and login through the gateway,
// with the confirmation worker delivering to the outbox (no SMTP configured).
describe.each([
  ["PostgreSQL + Redis + BullMQ", false],
  ["the embedded default", true],
])("users on %s", (_name, embedded) => {
  let s: TestStack;
  let app: FlowApp;
  beforeAll(async () => {
    s = await startTestStack({ embedded });
    app = await createApp(s);
  });
  afterAll(() => s.close());

  const send = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    sendAs(s, "POST", url, app.token, app.entrypoint, body, headers);
  const register = (email: string, password = "correct horse battery") =>
    send("/activityid/v1/user/register", registerEnvelope(app, email, password));
  const login = (email: string, password: string, query = "") =>
    send(`/activityid/v1/user/access${query}`, loginEnvelope(app, email, password));
  const outboxLink = async (email: string) => (await outboxLinks(s, email))[0]!;

  it("registers, refuses login until confirmed (412), confirms by link and logs in (200)", async () => {
    const email = `ana.${Date.now()}@example.com`;
    const reg = await register(email.toUpperCase());
    expect(reg.statusCode).toBe(201);
    const user = reg.json().content.user;
    expect(user.ids.email).toMatchObject({ objectType: "user_id", value: email, confirmed: false });
    expect(reg.json().content).not.toHaveProperty("session_info");

    const early = await login(email, "correct horse battery");
    expect(early.statusCode).toBe(412);
    expect(typeof early.json().content.url).toBe("string");

    const token = await outboxLink(email);
    const confirmed = await s.app.inject({ method: "GET", url: `/activityid/v1/user/confirm?token=${token}` });
    expect(confirmed.statusCode).toBe(302);
    expect(confirmed.headers.location).toBe("http://gatehouse.test/activityid/v1/user/confirmed");
    const again = await s.app.inject({ method: "GET", url: `/activityid/v1/user/confirm?token=${token}` });
    expect(again.statusCode).toBe(400);

    const ok = await login(email, "correct horse battery");
    expect(ok.statusCode).toBe(200);
    const body = ok.json();
    expect(body.result.status).toBe(200);
    expect(body.content.user.id).toBe(user.id);
    const info = body.content.session_info;
    expect(info.token_type).toBe("bearer");
    expect(info.expires_in).toBe(3600);
    expect(info.expires_at).toBeGreaterThan(Date.now());
    expect(String(info.expires_at)).toHaveLength(13);
    expect(info.login_status).toEqual({ uid: user.id, connect_state: "connected" });
    expect(typeof info.access_token).toBe("string");
    expect(typeof info.refresh_token).toBe("string");
    expect(typeof info.scope).toBe("string");
    // The spec's login takes "From = name of the entry point": its key ("web") is
    // the same entry point as its id.
    const byKey = await sendAs(
      s,
      "POST",
      "/activityid/v1/user/access",
      app.token,
      "web",
      loginEnvelope(app, email, "correct horse battery"),
    );
    expect(byKey.statusCode).toBe(200);
    expect(byKey.json().content.user.id).toBe(user.id);

    // The refresh token rotates through the token endpoint; a spent one revokes the family.
    const refresh = (token: string) =>
      s.app.inject({
        method: "POST",
        url: "/oauth2/token",
        headers: { authorization: s.basic(app.id, app.password), "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token }).toString(),
      });
    const rotated = await refresh(info.refresh_token);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().refresh_token).not.toBe(info.refresh_token);
    const reused = await refresh(info.refresh_token);
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error).toBe("invalid_grant");
    expect((await refresh(rotated.json().refresh_token)).json().error).toBe("invalid_grant");
  });

  it("answers 409 for a taken email and 403 with one body for a wrong password or an unknown user", async () => {
    const email = `bea.${Date.now()}@example.com`;
    expect((await register(email)).statusCode).toBe(201);
    const taken = await register(email);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().errors.code).toBe("identifier_taken");
    const wrong = await login(email, "wrong password!!");
    const unknown = await login(`nobody.${Date.now()}@example.com`, "wrong password!!");
    expect(wrong.statusCode).toBe(403);
    expect(unknown.statusCode).toBe(403);
    expect(unknown.json().errors).toEqual(wrong.json().errors);
  });

  it("confirms a second identifier by code with the user's access token (POST /user/confirm)", async () => {
    // phone_number (not main) must be confirmed too.
    const smsApp = await createApp(
      s,
      "sms",
      (body) => void (body.entrypoints[0].fields[1].requiresConfirmation = true),
    );
    const smsAppToken = smsApp.token;
    const headers = {
      authorization: `Bearer ${smsAppToken}`,
      "content-type": "application/json",
      from: smsApp.entrypoint,
    };
    const email = `dora.${Date.now()}@example.com`;
    const phone = `+3461${String(Date.now()).slice(-7)}`;
    const reg = await s.app.inject({
      method: "POST",
      url: "/activityid/v1/user/register",
      headers,
      payload: JSON.stringify({
        actor: { id: smsApp.id, objectType: "application" },
        verb: "create",
        object: {
          objectType: "user",
          password: "correct horse battery",
          ids: {
            email: { objectType: "user_id", value: email },
            phone_number: { objectType: "user_id", value: phone },
          },
          datas: { name: { objectType: "data", value: "Dora" } },
          assertions: {},
        },
        source,
      }),
    });
    expect(reg.statusCode).toBe(201);
    const link = await outboxLink(email);
    expect((await s.app.inject({ method: "GET", url: `/activityid/v1/user/confirm?token=${link}` })).statusCode).toBe(
      302,
    );
    const logged = await s.app.inject({
      method: "POST",
      url: "/activityid/v1/user/access",
      headers,
      payload: JSON.stringify({
        actor: { id: smsApp.id, objectType: "application" },
        verb: "access",
        object: {
          objectType: "user",
          password: "correct horse battery",
          ids: { email: { objectType: "user_id", value: email } },
        },
        source,
      }),
    });
    expect(logged.statusCode).toBe(200);
    const userToken = logged.json().content.session_info.access_token;
    const code = await outboxCode(s, phone);
    const confirm = (token: string, c: string) =>
      s.app.inject({
        method: "POST",
        url: "/activityid/v1/user/confirm",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        payload: JSON.stringify({ objectType: "confirmation", id: "phone_number", code: c }),
      });
    expect((await confirm(smsAppToken, code)).statusCode).toBe(401);
    const wrong = await confirm(userToken, code === "000000" ? "111111" : "000000");
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors.code).toBe("invalid_code");
    const ok = await confirm(userToken, code);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().content.user.ids.phone_number).toMatchObject({ value: phone, confirmed: true });
    expect((await confirm(userToken, code)).statusCode).toBe(400);
  });

  it("throttles failed logins per account and address: 429 with Retry-After, even for the right password", async () => {
    const email = `cleo.${Date.now()}@example.com`;
    expect((await register(email)).statusCode).toBe(201);
    const tries = await Promise.all(Array.from({ length: 8 }, () => login(email, "wrong password!!")));
    const statuses = tries.map((t) => t.statusCode).sort();
    expect(statuses.filter((c) => c === 403).length).toBeLessThanOrEqual(5);
    const limited = tries.find((t) => t.statusCode === 429)!;
    expect(limited.json().errors.code).toBe("rate_limited");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect((await login(email, "correct horse battery")).statusCode).toBe(429);
  });

  it("checks the envelope (400), the app token (401) and From (403) in that order", async () => {
    const bad = await send("/activityid/v1/user/access", { verb: "access" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.items.map((i: { field: string }) => i.field)).toEqual(
      expect.arrayContaining(["actor", "object", "source"]),
    );
    const extra = await send("/activityid/v1/user/access?sc=true", {
      actor: { id: app.id, objectType: "application" },
      verb: "access",
      object: { objectType: "user", password: "x", ids: { email: { objectType: "user_id", value: "a@example.com" } } },
      source,
      admin: true,
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().errors.items).toEqual([expect.objectContaining({ field: "admin", code: "unknown_member" })]);
    // Every violation at once (sc=false): the schema's and the checks it cannot express (actor.id, the credential).
    const many = {
      actor: { id: "another-app", objectType: "application" },
      verb: "access",
      object: { objectType: "user", ids: { email: { objectType: "user_id", value: "a@example.com" } } },
      source: { ...source, id: "fridge" },
    };
    const all = await send("/activityid/v1/user/access", many);
    expect(all.statusCode).toBe(400);
    const fields = all.json().errors.items.map((i: { field: string; code: string }) => `${i.field}:${i.code}`);
    expect(fields).toEqual(
      expect.arrayContaining(["actor.id:invalid_value", "object.password:required", "source.id:invalid_value"]),
    );
    expect(fields).toHaveLength(3);
    expect((await send("/activityid/v1/user/access?sc=true", many)).json().errors.items).toHaveLength(1);
    const anon = await login("a@example.com", "x".repeat(10));
    expect(anon.statusCode).toBe(403);
    const noToken = await s.app.inject({
      method: "POST",
      url: "/activityid/v1/user/access",
      headers: { "content-type": "application/json", from: app.entrypoint },
      payload: JSON.stringify({
        actor: { id: app.id, objectType: "application" },
        verb: "access",
        object: {
          objectType: "user",
          password: "x",
          ids: { email: { objectType: "user_id", value: "a@example.com" } },
        },
        source,
      }),
    });
    expect(noToken.statusCode).toBe(401);
    const wrongFrom = await send(
      "/activityid/v1/user/access",
      {
        actor: { id: app.id, objectType: "application" },
        verb: "access",
        object: {
          objectType: "user",
          password: "x",
          ids: { email: { objectType: "user_id", value: "a@example.com" } },
        },
        source,
      },
      { from: "999_nope" },
    );
    expect(wrongFrom.statusCode).toBe(403);
  });
});
