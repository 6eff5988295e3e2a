import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { admin } from "./admin-flows.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { createApp, loggedUser, loginEnvelope, send } from "./user-flows.ts";

// Contract section 10: logged-out and revoked tokens stay revoked across
// restarts. `npm start` keeps its revocation marks in process memory; the
// auth schema keeps them for good and a new process loads them before it
// answers (the Redis case: redis-outage.test.ts).
describe("revocations across a restart of npm start (embedded)", () => {
  it("a revoked app token and a logged-out session stay refused after stop and start", async () => {
    const env = {
      DATA_DIR: await mkdtemp(join(tmpdir(), "gh-restart-")),
      SECRET_KEY: randomBytes(32).toString("base64url"),
    };
    let s: TestStack = await startTestStack({ embedded: true, env });
    const form = (payload: Record<string, string>, app: { id: string; password: string }) => ({
      headers: { authorization: s.basic(app.id, app.password), "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams(payload).toString(),
    });
    const introspect = (token: string, app: { id: string; password: string }) =>
      s.app
        .inject({ method: "POST", url: "/oauth2/introspect", ...form({ token }, app) })
        .then((r) => r.json() as { active: boolean });
    const userinfo = (token: string) =>
      s.app.inject({ method: "GET", url: "/oauth2/userinfo", headers: { authorization: `Bearer ${token}` } });

    const app = await createApp(s);
    const kept = (
      await s.app.inject({ method: "POST", url: "/oauth2/token", ...form({ grant_type: "client_credentials" }, app) })
    ).json().access_token;
    const revoked = (
      await s.app.inject({ method: "POST", url: "/oauth2/token", ...form({ grant_type: "client_credentials" }, app) })
    ).json().access_token;
    expect(
      (await s.app.inject({ method: "POST", url: "/oauth2/revoke", ...form({ token: revoked }, app) })).statusCode,
    ).toBe(200);
    const live = await loggedUser(s, app);
    const out = await loggedUser(s, app);
    const logout = await s.app.inject({
      method: "POST",
      url: "/activityid/v1/user/logout",
      headers: { authorization: `Bearer ${out.accessToken}` },
    });
    expect(logout.statusCode).toBe(200);
    expect((await userinfo(out.accessToken)).statusCode).toBe(401);
    await s.close();

    s = await startTestStack({ embedded: true, env });
    try {
      expect(await introspect(revoked, app)).toEqual({ active: false });
      expect(await introspect(kept, app)).toMatchObject({ active: true, client_id: app.id });
      expect((await userinfo(out.accessToken)).statusCode).toBe(401);
      expect((await userinfo(live.accessToken)).statusCode).toBe(403); // valid (no openid scope)
      // A revocation made after the restart holds across the next one too.
      expect(
        (await s.app.inject({ method: "POST", url: "/oauth2/revoke", ...form({ token: kept }, app) })).statusCode,
      ).toBe(200);
      await s.close();
      s = await startTestStack({ embedded: true, env });
      expect(await introspect(kept, app)).toEqual({ active: false });
      expect((await userinfo(out.accessToken)).statusCode).toBe(401);
    } finally {
      await s.close();
    }
  }, 120_000);

  it('a user logged out everywhere through the admin API stays refused after stop and start (the durable "not before"); a new login works', async () => {
    const env = {
      DATA_DIR: await mkdtemp(join(tmpdir(), "gh-restart-")),
      SECRET_KEY: randomBytes(32).toString("base64url"),
    };
    let s: TestStack = await startTestStack({ embedded: true, env });
    const userinfo = (token: string) =>
      s.app.inject({ method: "GET", url: "/oauth2/userinfo", headers: { authorization: `Bearer ${token}` } });
    const app = await createApp(s);
    const u = await loggedUser(s, app);
    expect((await admin(s, "POST", `/admin/v1/users/${u.id}/logout`)).statusCode).toBe(200);
    expect((await userinfo(u.accessToken)).statusCode).toBe(401);
    await s.close();

    s = await startTestStack({ embedded: true, env });
    try {
      expect((await userinfo(u.accessToken)).statusCode).toBe(401);
      const again = await send(
        s,
        "POST",
        "/activityid/v1/user/access",
        app.token,
        app.entrypoint,
        loginEnvelope(app, u.email),
      );
      expect(again.statusCode).toBe(200);
      expect((await userinfo(again.json().content.session_info.access_token)).statusCode).toBe(403); // valid (no openid scope)
    } finally {
      await s.close();
    }
  }, 120_000);
});
