import { connect, createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase } from "@gatehouse/testing";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { createApp, registerEnvelope, send, type FlowApp } from "./user-flows.ts";

/** A TCP relay to the test PostgreSQL that the test can cut (every connection dropped, new ones refused) and mend. */
async function cuttableRelay(
  targetPort: number,
): Promise<{ port: number; cut(): void; mend(): void; close(): Promise<void> }> {
  const open = new Set<Socket>();
  let down = false;
  const server: Server = createServer((client) => {
    if (down) return client.destroy();
    const upstream = connect(targetPort, "127.0.0.1");
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    for (const s of [client, upstream]) open.add(s).add(s.on("error", end).on("close", end));
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    port: (server.address() as AddressInfo).port,
    cut: () => {
      down = true;
      for (const s of open) s.destroy();
    },
    mend: () => void (down = false),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

// Contract section 1: /readyz answers 503 with Retry-After while a store is
// unreachable. Every other request that needs the database says the same (503,
// Retry-After; OAuth's temporarily_unavailable), never a 500, and service
// resumes by itself when the database is back.
describe("PostgreSQL unreachable, then back", () => {
  let relay: Awaited<ReturnType<typeof cuttableRelay>>;
  let s: TestStack;
  let app: FlowApp;
  let operator: string;

  beforeAll(async () => {
    const db = new URL((await freshDatabase()).url);
    relay = await cuttableRelay(Number(db.port || 5432));
    db.port = String(relay.port);
    s = await startTestStack({ env: { DATABASE_URL: db.toString() } });
    app = await createApp(s);
    operator = await s.operatorToken();
  }, 120_000);

  afterAll(async () => {
    relay?.mend();
    await s?.close();
    await relay?.close();
  });

  const unknownClientToken = () =>
    s.app.inject({
      method: "POST",
      url: "/oauth2/token",
      headers: {
        authorization: s.basic("nobody-here", "not-a-secret"),
        "content-type": "application/x-www-form-urlencoded",
      },
      payload: "grant_type=client_credentials",
    });
  const register = () =>
    send(
      s,
      "POST",
      "/activityid/v1/user/register",
      app.token,
      app.entrypoint,
      registerEnvelope(app, `pg${Date.now()}@example.com`),
    );
  const adminApps = () =>
    s.app.inject({ method: "GET", url: "/admin/v1/apps", headers: { authorization: `Bearer ${operator}` } });

  it("answers 503 with Retry-After on readyz and on every request that needs the database; then serves again", async () => {
    relay.cut();
    const ready = await s.app.inject({ method: "GET", url: "/readyz" });
    expect([ready.statusCode, ready.headers["retry-after"]]).toEqual([503, "1"]);

    const token = await unknownClientToken();
    expect([token.statusCode, token.headers["retry-after"], token.json().error]).toEqual([
      503,
      "1",
      "temporarily_unavailable",
    ]);
    for (const res of [await register(), await adminApps()]) {
      expect([res.statusCode, res.headers["retry-after"]], res.body).toEqual([503, "1"]);
      expect(res.json()).toMatchObject({ result: { status: 503 }, errors: { code: "store_unavailable" } });
    }

    relay.mend();
    const until = Date.now() + 10_000;
    while ((await s.app.inject({ method: "GET", url: "/readyz" })).statusCode !== 200 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 100));
    expect((await unknownClientToken()).statusCode).toBe(401);
    expect((await register()).statusCode).toBe(201);
    expect((await adminApps()).statusCode).toBe(200);
  }, 60_000);
});
