import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, audit, INJECT_ADDRESS, OPERATOR_ACTOR } from "./admin-flows.ts";
import {
  authorizePath,
  confirmedUser,
  createOAuthApp,
  exchange,
  formOf,
  loginForCode,
  pkce,
  postLogin,
  validAuthorize,
} from "./oauth-flow.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import {
  createApp,
  loggedUser,
  loginEnvelope,
  outboxLinks,
  PASSWORD,
  registerEnvelope,
  send,
  type FlowApp,
} from "./user-flows.ts";

// /admin/v1/users (contract section 6) through the whole system: the users
// service owns the accounts, the auth service their sessions and tokens.
describe.each([
  ["PostgreSQL + Redis", false],
  ["the embedded default", true],
])("admin users on %s", (_name, embedded) => {
  let s: TestStack;
  let app: FlowApp;
  beforeAll(async () => {
    s = await startTestStack({ embedded });
    app = await createApp(s, "users");
  });
  afterAll(() => s.close());

  const login = async (email: string, password?: string) =>
    send(s, "POST", "/activityid/v1/user/access", app.token, app.entrypoint, loginEnvelope(app, email, password));
  const session = async (email: string) =>
    (await login(email)).json().content.session_info as { access_token: string; refresh_token: string };
  const refresh = (refreshToken: string) =>
    s.app.inject({
      method: "POST",
      url: "/oauth2/token",
      headers: { authorization: s.basic(app.id, app.password), "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }).toString(),
    });
  /** A user route that needs a live access token (logout of that session). */
  const tokenWorks = async (accessToken: string) =>
    (
      await s.app.inject({
        method: "GET",
        url: "/oauth2/userinfo",
        headers: { authorization: `Bearer ${accessToken}` },
      })
    ).statusCode !== 401;
  const userOf = async (id: string | number) =>
    (await admin(s, "GET", `/admin/v1/users/${id}`, { scope: "admin:read" })).json().content.user;

  it("searches by email (exact or prefix, any case), object id and pulse id, in pages", async () => {
    const tag = `srch${Date.now()}`;
    const a = await loggedUser(s, app, `${tag}a@example.com`);
    const b = await loggedUser(s, app, `${tag}b@example.com`);
    const res = await admin(s, "GET", `/admin/v1/users?q=${tag.toUpperCase()}`, { scope: "admin:read" });
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json()
        .content.items.map((u: { id: number }) => u.id)
        .sort(),
    ).toEqual([a.id, b.id].sort());
    expect(res.json().content.items[0]).toMatchObject({
      objectType: "user",
      status: "active",
      mfa: false,
      lastLogin: expect.any(String),
    });
    expect(
      (await admin(s, "GET", `/admin/v1/users?q=${tag}a@example.com`))
        .json()
        .content.items.map((u: { id: number }) => u.id),
    ).toEqual([a.id]);
    expect(
      (await admin(s, "GET", `/admin/v1/users?q=${a.id}`)).json().content.items.map((u: { id: number }) => u.id),
    ).toEqual([a.id]);
    expect(
      (await admin(s, "GET", `/admin/v1/users?q=${b.pulseId.slice(0, 10)}`))
        .json()
        .content.items.map((u: { id: number }) => u.id),
    ).toEqual([b.id]);
    const first = (await admin(s, "GET", `/admin/v1/users?q=${tag}&limit=1`)).json().content;
    const second = (await admin(s, "GET", `/admin/v1/users?q=${tag}&limit=1&cursor=${first.next}`)).json().content;
    expect([...first.items, ...second.items].map((u: { id: number }) => u.id).sort()).toEqual([a.id, b.id].sort());
    expect(second).not.toHaveProperty("next");
  });

  it("reads a user by object id or pulse id with status, lastLogin, live sessions and mfa", async () => {
    const u = await loggedUser(s, app);
    await login(u.email);
    const res = await admin(s, "GET", `/admin/v1/users/${u.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().content.user).toMatchObject({
      id: u.id,
      pulse_id: u.pulseId,
      objectType: "user",
      ids: { email: { value: u.email, confirmed: true } },
      status: "active",
      sessions: 2,
      mfa: false,
    });
    expect(Date.parse(res.json().content.user.lastLogin)).toBeGreaterThan(Date.now() - 60_000);
    expect((await userOf(u.pulseId)).id).toBe(u.id);
    const missing = await admin(s, "GET", "/admin/v1/users/1234567890123456");
    expect([missing.statusCode, missing.json().errors.code]).toEqual([404, "user_not_found"]);
  });

  it("lock: sessions and refresh tokens end at once, login answers 403 account_locked after the password; unlock", async () => {
    const u = await loggedUser(s, app);
    const live = await session(u.email);
    const locked = await admin(s, "POST", `/admin/v1/users/${u.id}/lock`, {
      headers: { "content-type": "application/json" },
    });
    expect(locked.statusCode).toBe(200);
    expect(locked.json().content.user).toMatchObject({ id: u.id, status: "locked", sessions: 0 });
    expect(await tokenWorks(live.access_token)).toBe(false);
    expect(await tokenWorks(u.accessToken)).toBe(false);
    expect((await refresh(live.refresh_token)).json().error).toBe("invalid_grant");
    const refused = await login(u.email);
    expect([refused.statusCode, refused.json().errors.code]).toEqual([403, "account_locked"]);
    const wrong = await login(u.email, "not the password");
    expect([wrong.statusCode, wrong.json().errors.code]).toEqual([403, "invalid_credentials"]);
    expect((await userOf(u.id)).status).toBe("locked");

    const unlocked = await admin(s, "POST", `/admin/v1/users/${u.id}/unlock`);
    expect(unlocked.json().content.user.status).toBe("active");
    expect((await login(u.email)).statusCode).toBe(200);
    const entries = await audit(s, { target: String(u.id) });
    expect(entries.map((e) => e.action)).toEqual(["user.unlock", "user.lock"]);
    expect(entries[1]).toMatchObject({ actor: OPERATOR_ACTOR, address: INJECT_ADDRESS });
  });

  it("hosted login of a locked account: the locked page (403) after the right password; a code issued before the lock is refused", async () => {
    const oauthApp = await createOAuthApp(s);
    const u = await confirmedUser(s, oauthApp);
    const early = pkce();
    const { query } = await loginForCode(s, validAuthorize(oauthApp, early.challenge), u.email, PASSWORD);
    expect((await admin(s, "POST", `/admin/v1/users/${u.id}/lock`)).statusCode).toBe(200);
    const late = await exchange(s, oauthApp, { code: query.get("code")!, code_verifier: early.verifier });
    expect([late.statusCode, late.json().error]).toEqual([400, "invalid_grant"]);

    const page = await s.app.inject({ method: "GET", url: authorizePath(validAuthorize(oauthApp, pkce().challenge)) });
    const wrong = await postLogin(s, formOf(page), u.email, "not the password");
    expect(wrong.statusCode).toBe(401);
    const refused = await postLogin(s, formOf(wrong, formOf(page).cookie), u.email, PASSWORD);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers.location).toBeUndefined();
    expect(refused.body).toContain("This account is locked");
    expect(refused.body).not.toContain('name="password"');
  });

  it("logout ends every session at once; a login right after works", async () => {
    const u = await loggedUser(s, app);
    const second = await session(u.email);
    const res = await admin(s, "POST", `/admin/v1/users/${u.id}/logout`);
    expect(res.statusCode).toBe(200);
    expect(res.json().content.user.sessions).toBe(0);
    expect(await tokenWorks(u.accessToken)).toBe(false);
    expect(await tokenWorks(second.access_token)).toBe(false);
    expect((await refresh(second.refresh_token)).statusCode).toBe(400);
    const fresh = await session(u.email);
    expect(await tokenWorks(fresh.access_token)).toBe(true);
    expect((await refresh(fresh.refresh_token)).statusCode).toBe(200);
    expect((await audit(s, { target: String(u.id), action: "user.logout" }))[0]!.details).toEqual({ sessionsEnded: 2 });
  });

  it("export: everything stored about the user as JSON, without secrets or hashes; audited", async () => {
    const u = await loggedUser(s, app);
    const res = await admin(s, "GET", `/admin/v1/users/${u.id}/export`, { scope: "admin:read" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="user-${u.id}.json"`);
    const c = res.json().content;
    expect(c.user).toMatchObject({
      id: u.id,
      ids: { email: { value: u.email } },
      datas: { name: { value: "Ana" } },
      status: "active",
      sessions: 1,
    });
    expect(c.registration).toEqual({ clientId: app.id, entrypointId: app.entrypoint });
    expect(c.confirmations).toEqual([
      expect.objectContaining({ key: "email", value: u.email, purpose: "register", used: expect.any(String) }),
    ]);
    expect(c.sessions).toEqual([expect.objectContaining({ clientId: app.id })]);
    expect(c.mfa).toMatchObject({ totp: false });
    expect(res.body).not.toMatch(/argon2|"password"|hash|secret|token|otpauth/i);
    expect((await audit(s, { target: String(u.id), action: "user.export" })).length).toBe(1);
  });

  it("DELETE erases the user (204): 404 afterwards, tokens refused, the email free for a new registration at once", async () => {
    const u = await loggedUser(s, app);
    const res = await admin(s, "DELETE", `/admin/v1/users/${u.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe("");
    expect((await admin(s, "GET", `/admin/v1/users/${u.id}`)).statusCode).toBe(404);
    expect((await admin(s, "GET", `/admin/v1/users/${u.pulseId}/export`)).statusCode).toBe(404);
    expect(await tokenWorks(u.accessToken)).toBe(false);
    expect((await login(u.email)).statusCode).toBe(403);
    const again = await send(
      s,
      "POST",
      "/activityid/v1/user/register",
      app.token,
      app.entrypoint,
      registerEnvelope(app, u.email),
    );
    expect(again.statusCode).toBe(201);
    expect(again.json().content.user.id).not.toBe(u.id);
    await outboxLinks(s, u.email, 2);
    const [entry] = await audit(s, { target: String(u.id), action: "user.delete" });
    expect(entry).toMatchObject({
      actor: OPERATOR_ACTOR,
      details: { pulseId: u.pulseId, sessionsEnded: 1, erased: { identifiers: ["email"] } },
    });
    expect(JSON.stringify(entry)).not.toContain(u.email);
    expect((await admin(s, "DELETE", `/admin/v1/users/${u.id}`)).statusCode).toBe(404);
  });

  it("401 without a valid token and 403 without the scope, on every route", async () => {
    const u = await loggedUser(s, app);
    const routes: [string, string][] = [
      ["GET", "/admin/v1/users"],
      ["GET", `/admin/v1/users/${u.id}`],
      ["POST", `/admin/v1/users/${u.id}/lock`],
      ["POST", `/admin/v1/users/${u.id}/unlock`],
      ["POST", `/admin/v1/users/${u.id}/logout`],
      ["GET", `/admin/v1/users/${u.id}/export`],
      ["DELETE", `/admin/v1/users/${u.id}`],
    ];
    for (const [method, url] of routes) {
      expect([url, (await admin(s, method as "GET", url, { token: null })).statusCode]).toEqual([url, 401]);
      expect([url, (await admin(s, method as "GET", url, { token: u.accessToken })).statusCode]).toEqual([url, 403]);
      const wrongScope = method === "GET" ? "admin:write" : "admin:read";
      expect([url, (await admin(s, method as "GET", url, { scope: wrongScope })).statusCode]).toEqual([url, 403]);
    }
    expect((await userOf(u.id)).status).toBe("active");
  });
});
