import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { createApp, loggedUser, loginEnvelope, PASSWORD, type FlowApp } from "./user-flows.ts";

// Contract section 10: X-Forwarded-For is trusted only from TRUSTED_PROXIES;
// the login throttles key on the address it yields.
describe("TRUSTED_PROXIES and the login throttle", () => {
  let s: TestStack;
  let app: FlowApp;
  let email: string;

  beforeAll(async () => {
    s = await startTestStack({ embedded: true, env: { TRUSTED_PROXIES: "10.0.0.0/8" } });
    app = await createApp(s);
    email = (await loggedUser(s, app)).email;
  }, 120_000);
  afterAll(() => s?.close());

  const login = (remoteAddress: string, forwardedFor: string | undefined, password: string) =>
    s.app.inject({
      method: "POST",
      url: "/activityid/v1/user/access",
      remoteAddress,
      headers: {
        authorization: `Bearer ${app.token}`,
        "content-type": "application/json",
        accept: "application/json",
        from: app.entrypoint,
        ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}),
      },
      payload: JSON.stringify(loginEnvelope(app, email, password)),
    });

  it("through a trusted proxy, the forwarded client address is the one throttled", async () => {
    for (let i = 0; i < 5; i++)
      expect((await login("10.1.2.3", "203.0.113.7", "wrong password!")).statusCode).toBe(403);
    const limited = await login("10.1.2.3", "203.0.113.7", PASSWORD);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    // Another user behind the same proxy is another address: the owner logs in.
    expect((await login("10.1.2.3", "198.51.100.20", PASSWORD)).statusCode).toBe(200);
  });

  it("from anywhere else X-Forwarded-For is ignored: it can neither frame the blocked address nor escape the limit", async () => {
    // Claiming to be the blocked address changes nothing: this connection's own address is not blocked.
    expect((await login("192.0.2.50", "203.0.113.7", PASSWORD)).statusCode).toBe(200);
    // A new made-up address on every guess does not reset the count: it is the connection's.
    for (let i = 0; i < 5; i++)
      expect((await login("192.0.2.51", `198.51.100.${100 + i}`, "wrong password!")).statusCode).toBe(403);
    expect((await login("192.0.2.51", "198.51.100.200", PASSWORD)).statusCode).toBe(429);
  });
});
