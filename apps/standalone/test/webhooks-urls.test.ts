import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin } from "./admin-flows.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";

// Contract section 14: webhook URLs are https, never loopback or private
// unless WEBHOOK_ALLOW_PRIVATE=true (400 otherwise); the delivery checks the
// resolved address again (libs/events/src/send.test.ts).
describe("webhook URLs without WEBHOOK_ALLOW_PRIVATE", () => {
  let s: TestStack;
  beforeAll(async () => {
    s = await startTestStack({ embedded: true });
  });
  afterAll(() => s.close());

  it("are https only and never loopback or private (400), checked again when changed", async () => {
    const refused = [
      "http://hooks.example.com/x",
      "https://127.0.0.1/x",
      "https://localhost/x",
      "https://10.1.2.3/x",
      "https://192.168.1.1/x",
      "https://169.254.169.254/latest",
      "https://[::1]/x",
      "https://[::ffff:127.0.0.1]/x",
      "https://user:pw@hooks.example.com/x",
      "ftp://hooks.example.com/x",
    ];
    for (const url of refused) {
      const res = await admin(s, "POST", "/admin/v1/webhooks", { body: { url, events: ["*"] } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().result.violations?.[0]?.field ?? res.body, url).toMatch(/url/);
    }
    const unknown = await admin(s, "POST", "/admin/v1/webhooks", {
      body: { url: "https://hooks.example.com/x", events: ["user.nope"] },
    });
    expect(unknown.statusCode).toBe(400);
    const ok = await admin(s, "POST", "/admin/v1/webhooks", {
      body: { url: "https://hooks.example.com/x", events: ["*"] },
    });
    expect(ok.statusCode).toBe(201);
    const id = ok.json().content.id;
    const moved = await admin(s, "PATCH", `/admin/v1/webhooks/${id}`, { body: { url: "https://127.0.0.1/x" } });
    expect(moved.statusCode).toBe(400);
    expect((await admin(s, "GET", "/admin/v1/webhooks", { scope: "admin:read" })).json().content.items).toHaveLength(1);
    expect(
      (
        await admin(s, "POST", "/admin/v1/webhooks", {
          scope: "admin:read",
          body: { url: "https://a.example.com", events: ["*"] },
        })
      ).statusCode,
    ).toBe(403);
  }, 60_000);

  it("answers unknown endpoints and deliveries with 404 and bad bodies with 400, never 5xx", async () => {
    for (const url of [
      "/admin/v1/webhooks/wh_nope",
      "/admin/v1/webhooks/wh_nope/deliveries",
      "/admin/v1/webhooks?cursor=garbage",
    ])
      expect((await admin(s, "GET", url)).statusCode, url).toBe(url.includes("cursor") ? 400 : 404);
    expect((await admin(s, "POST", "/admin/v1/webhooks/wh_nope/deliveries/dlv_nope/retry")).statusCode).toBe(404);
    expect((await admin(s, "POST", "/admin/v1/webhooks/wh_nope/secret/rotate")).statusCode).toBe(404);
    expect((await admin(s, "DELETE", "/admin/v1/webhooks/wh_nope")).statusCode).toBe(404);
    const bad = [
      {},
      { url: "https://a.example.com", events: [] },
      { url: "https://a.example.com", events: ["*"], application: "no-such-app" },
      { url: "https://a.example.com", events: ["*", "*"] },
      { url: "https://a.example.com", events: ["*"], extra: 1 },
      { url: 42, events: ["*"] },
    ];
    for (const body of bad) {
      const res = await admin(s, "POST", "/admin/v1/webhooks", { body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  }, 60_000);
});
