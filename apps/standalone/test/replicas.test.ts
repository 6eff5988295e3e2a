import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropTestDatabases, freshDatabase, redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { createApp, loggedUser, loginEnvelope, registerEnvelope, send, type FlowApp } from "./user-flows.ts";

// Contract section 10: replicas behave as one. Two whole stacks (gateway and
// every service) on one PostgreSQL and one Redis: what one revokes, ends or
// throttles, the other refuses at once.
describe("two replicas on one PostgreSQL + Redis", () => {
  let a: TestStack;
  let b: TestStack;
  let app: FlowApp;

  beforeAll(async () => {
    // One deployment: one database, one Redis, one SECRET_KEY (and one outbox folder: either worker may deliver).
    const env = {
      DATA_DIR: await mkdtemp(join(tmpdir(), "gh-replicas-")),
      DATABASE_URL: (await freshDatabase()).url,
      REDIS_URL: redisTestUrl(),
      REDIS_PREFIX: uniquePrefix(),
      SECRET_KEY: randomBytes(32).toString("base64url"),
    };
    [a, b] = await Promise.all([startTestStack({ env }), startTestStack({ env })]);
    app = await createApp(a);
  }, 120_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await dropTestDatabases();
  });

  const form = (s: TestStack, payload: Record<string, string>) => ({
    headers: { authorization: s.basic(app.id, app.password), "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams(payload).toString(),
  });
  const introspect = async (s: TestStack, token: string) =>
    (await s.app.inject({ method: "POST", url: "/oauth2/introspect", ...form(s, { token }) })).json() as {
      active: boolean;
    };
  const userinfo = (s: TestStack, token: string) =>
    s.app.inject({ method: "GET", url: "/oauth2/userinfo", headers: { authorization: `Bearer ${token}` } });

  it("a token revoked on one replica is refused by the other at once", async () => {
    const token = (
      await a.app.inject({ method: "POST", url: "/oauth2/token", ...form(a, { grant_type: "client_credentials" }) })
    ).json().access_token;
    expect(await introspect(b, token)).toMatchObject({ active: true });
    expect((await a.app.inject({ method: "POST", url: "/oauth2/revoke", ...form(a, { token }) })).statusCode).toBe(200);
    expect(await introspect(b, token)).toEqual({ active: false });
    const reg = await send(
      b,
      "POST",
      "/activityid/v1/user/register",
      token,
      app.entrypoint,
      registerEnvelope(app, `r${Date.now()}@example.com`),
    );
    expect(reg.statusCode).toBe(401);
  });

  it("a logout on one replica ends the session on the other: access token refused, refresh token spent", async () => {
    const user = await loggedUser(a, app);
    const login = await send(
      b,
      "POST",
      "/activityid/v1/user/access",
      app.token,
      app.entrypoint,
      loginEnvelope(app, user.email),
    );
    expect(login.statusCode).toBe(200);
    const session = login.json().content.session_info;
    expect((await userinfo(a, session.access_token)).statusCode).toBe(403); // valid, no openid scope
    const out = await b.app.inject({
      method: "POST",
      url: "/activityid/v1/user/logout",
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect(out.statusCode).toBe(200);
    expect((await userinfo(a, session.access_token)).statusCode).toBe(401);
    const refresh = await a.app.inject({
      method: "POST",
      url: "/oauth2/token",
      ...form(a, { grant_type: "refresh_token", refresh_token: session.refresh_token }),
    });
    expect(refresh.statusCode).toBe(400);
    expect(refresh.json().error).toBe("invalid_grant");
    // The first session (opened on a) is untouched on both.
    expect((await userinfo(b, user.accessToken)).statusCode).toBe(403);
  });

  it("failed logins on one replica count on the other (one throttle)", async () => {
    const user = await loggedUser(b, app);
    const wrong = (s: TestStack) =>
      send(
        s,
        "POST",
        "/activityid/v1/user/access",
        app.token,
        app.entrypoint,
        loginEnvelope(app, user.email, "wrong password!!"),
      );
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await wrong(i % 2 ? b : a)).statusCode);
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429]);
  });
});
