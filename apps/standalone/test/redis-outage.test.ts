import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPrivateRedis, type PrivateRedis } from "./private-redis.ts";
import { OPERATOR, startTestStack, type TestStack } from "./stack-helpers.ts";
import {
  createApp,
  loggedUser,
  loginEnvelope,
  outboxLinks,
  registerEnvelope,
  send,
  type FlowApp,
  type LoggedUser,
} from "./user-flows.ts";

// Contract section 10: with Redis unreachable every request that needs it
// answers 503 with Retry-After within 1 s (a valid token is never a 401, nothing
// is a 500), and service resumes by itself when Redis is back. The Redis is the
// test's own redis-server, killed (SIGKILL) and started again empty, as after a
// restart without persistence: revocations must survive that too.
describe("Redis unreachable, then back empty", () => {
  let redis: PrivateRedis;
  let s: TestStack;
  let app: FlowApp;
  let live: LoggedUser;
  let loggedOut: LoggedUser;
  let revokedAppToken: string;
  let operator: string;

  const form = (payload: Record<string, string>, auth = s.basic(app.id, app.password)) => ({
    headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams(payload).toString(),
  });
  const introspect = (token: string) => s.app.inject({ method: "POST", url: "/oauth2/introspect", ...form({ token }) });
  const userinfo = (token: string) =>
    s.app.inject({ method: "GET", url: "/oauth2/userinfo", headers: { authorization: `Bearer ${token}` } });
  const logout = (token: string) =>
    s.app.inject({
      method: "POST",
      url: "/activityid/v1/user/logout",
      headers: { authorization: `Bearer ${token}`, accept: "application/json" },
    });

  beforeAll(async () => {
    redis = await startPrivateRedis();
    s = await startTestStack({ env: { REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: "500" } });
    app = await createApp(s);
    operator = await s.operatorToken();
    live = await loggedUser(s, app);
    loggedOut = await loggedUser(s, app);
    expect((await logout(loggedOut.accessToken)).statusCode).toBe(200);
    const t = await s.app.inject({
      method: "POST",
      url: "/oauth2/token",
      ...form({ grant_type: "client_credentials" }),
    });
    revokedAppToken = t.json().access_token;
    expect(
      (await s.app.inject({ method: "POST", url: "/oauth2/revoke", ...form({ token: revokedAppToken }) })).statusCode,
    ).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await s?.close();
    await redis?.kill();
  });

  it("answers 503 with Retry-After within 1 s on every request that needs Redis, never 401 or 500", async () => {
    await redis.kill();
    const timed = async (
      name: string,
      request: () => Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }>,
    ) => {
      const started = performance.now();
      const res = await request();
      return {
        name,
        ms: performance.now() - started,
        status: res.statusCode,
        retryAfter: res.headers["retry-after"],
        body: res.body,
      };
    };
    const results = [
      await timed("register (APP_TOKEN)", () =>
        send(
          s,
          "POST",
          "/activityid/v1/user/register",
          app.token,
          app.entrypoint,
          registerEnvelope(app, `down${Date.now()}@example.com`),
        ),
      ),
      await timed("login (APP_TOKEN)", () =>
        send(s, "POST", "/activityid/v1/user/access", app.token, app.entrypoint, loginEnvelope(app, live.email)),
      ),
      await timed("logout (ACCESS_TOKEN)", () => logout(live.accessToken)),
      await timed("userinfo (ACCESS_TOKEN)", () => userinfo(live.accessToken)),
      await timed("introspect", () => introspect(app.token)),
      await timed("revoke", () =>
        s.app.inject({ method: "POST", url: "/oauth2/revoke", ...form({ token: app.token }) }),
      ),
      await timed("GET /v2/apps/:id (operator token)", () =>
        s.app.inject({ method: "GET", url: `/v2/apps/${app.id}`, headers: { authorization: `Bearer ${operator}` } }),
      ),
      await timed("readyz", () => s.app.inject({ method: "GET", url: "/readyz" })),
    ];
    for (const r of results) {
      expect({ name: r.name, status: r.status }).toEqual({ name: r.name, status: 503 });
      expect(r.ms, r.name).toBeLessThan(1_000);
      expect(r.retryAfter, r.name).toBe("1");
    }
    const envelope = JSON.parse(results[0]!.body);
    expect(envelope.errors.code).toBe("store_unavailable");
    expect(envelope.result.status).toBe(503);
    expect(JSON.parse(results[4]!.body).error).toBe("temporarily_unavailable");
    console.info(`Redis down: ${results.map((r) => `${r.name} ${Math.round(r.ms)} ms`).join(", ")}`);
    // What needs no Redis goes on: client_credentials costs no Redis round trip.
    expect(
      (await s.app.inject({ method: "POST", url: "/oauth2/token", ...form({ grant_type: "client_credentials" }) }))
        .statusCode,
    ).toBe(200);
  });

  it("recovers by itself when Redis is back (empty): revocations survive, deliveries resume", async () => {
    await redis.start();
    const started = performance.now();
    let status = 0;
    while (performance.now() - started < 10_000) {
      status = (await introspect(app.token)).statusCode;
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(200);
    console.info(`Redis back: first 200 after ${Math.round(performance.now() - started)} ms`);
    expect((await introspect(app.token)).json()).toMatchObject({ active: true, client_id: app.id });
    // Nothing revoked before Redis lost its data is valid again.
    expect((await introspect(revokedAppToken)).json()).toEqual({ active: false });
    expect((await userinfo(loggedOut.accessToken)).statusCode).toBe(401);
    expect(
      (
        await send(
          s,
          "POST",
          "/activityid/v1/user/register",
          revokedAppToken,
          app.entrypoint,
          registerEnvelope(app, `r${Date.now()}@example.com`),
        )
      ).statusCode,
    ).toBe(401);
    // A valid access token still is; its session was lost with Redis, and a logout still refuses it at once.
    expect((await userinfo(live.accessToken)).statusCode).toBe(403); // valid, but no openid scope
    expect((await logout(live.accessToken)).statusCode).toBe(200);
    expect((await userinfo(live.accessToken)).statusCode).toBe(401);
    // The delivery queue (BullMQ) reconnects too, on its own connection and schedule: until it has, a registration
    // is 502; then one is 201 and its message arrives.
    let email = "";
    await expect
      .poll(
        async () => {
          email = `back${Date.now()}@example.com`;
          const reg = await send(
            s,
            "POST",
            "/activityid/v1/user/register",
            app.token,
            app.entrypoint,
            registerEnvelope(app, email),
          );
          return reg.statusCode;
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(201);
    expect(await outboxLinks(s, email)).toHaveLength(1);
    expect((await s.app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
  }, 60_000);
});

// The same from the start (REDIS_URL of a Redis that is down): the process starts, answers 503 where
// it needs Redis, and serves once Redis answers, its registry notices subscribed by then.
describe("Redis unreachable at start", () => {
  it("starts anyway, answers 503 with Retry-After, and serves once Redis is up", async () => {
    const redis = await startPrivateRedis();
    await redis.kill();
    const s = await startTestStack({ env: { REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: "500" } });
    try {
      const introspect = () =>
        s.app.inject({
          method: "POST",
          url: "/oauth2/introspect",
          headers: {
            authorization: s.basic(OPERATOR.id, OPERATOR.secret),
            "content-type": "application/x-www-form-urlencoded",
          },
          payload: "token=x",
        });
      const started = performance.now();
      const down = await introspect();
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(down.statusCode).toBe(503);
      expect(down.headers["retry-after"]).toBe("1");
      expect((await s.app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(503);
      await redis.start();
      let status = 0;
      for (let i = 0; i < 100 && status !== 200; i++) {
        status = (await introspect()).statusCode;
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(200);
      expect((await createApp(s, "late")).id).toMatch(/^\d+_late$/);
    } finally {
      await s.close();
      await redis.kill();
    }
  }, 60_000);
});
