import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, validApplication, type TestStack } from "./stack-helpers.ts";

// Bad input at the gateway: a 4xx in the contract envelope, nothing changed,
// never a 500 or a stack trace.
let s: TestStack;
let token: string;
beforeAll(async () => {
  s = await startTestStack({ env: { BODY_LIMIT_BYTES: "16384" } });
  token = await s.operatorToken();
});
afterAll(() => s.close());

const count = async () =>
  (await s.stores.db.query<{ n: number }>("SELECT count(*)::int AS n FROM registry.clients")).rows[0]!.n;
const send = (payload: string, contentType = "application/json") =>
  s.app.inject({
    method: "POST",
    url: "/v2/apps",
    headers: { authorization: `Bearer ${token}`, "content-type": contentType },
    payload,
  });

function expectEnvelope(res: Awaited<ReturnType<typeof send>>, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  const body = res.json();
  expect(body.result.status).toBe(status);
  expect(body.errors.code).toBe(code);
  expect(typeof body.errors.message).toBe("string");
  expect(Array.isArray(body.errors.items)).toBe(true);
  expect(res.body).not.toMatch(/at .*\.ts:\d+|stack/i);
}

describe("bad input at the gateway", () => {
  it("answers each malformed request in the envelope and stores nothing", async () => {
    const before = await count();
    expectEnvelope(await send("{not json"), 400, "malformed_request");
    expectEnvelope(await send(""), 400, "malformed_request");
    expectEnvelope(await send("[]"), 400, "validation_failed");
    expectEnvelope(await send('"text"'), 400, "validation_failed");
    expectEnvelope(await send("objectType=application", "text/plain"), 415, "unsupported_media_type");
    expectEnvelope(
      await send("objectType=application", "application/x-www-form-urlencoded"),
      415,
      "unsupported_media_type",
    );
    const big = validApplication();
    big.displayName = "x".repeat(20_000);
    expectEnvelope(await send(JSON.stringify(big)), 413, "payload_too_large");
    const proto = JSON.stringify(validApplication()).replace(
      '{"objectType"',
      '{"__proto__":{"admin":true},"objectType"',
    );
    expectEnvelope(await send(proto), 400, "malformed_request");
    const ctor = JSON.stringify(validApplication()).replace(
      '{"objectType"',
      '{"constructor":{"prototype":{"x":1}},"objectType"',
    );
    expectEnvelope(await send(ctor), 400, "malformed_request");
    const deep = validApplication();
    deep.entrypoints[0].fields[0].main = "true";
    deep.redirectUris = "https://a.example/cb";
    const res = await send(JSON.stringify(deep));
    expectEnvelope(res, 400, "validation_failed");
    expect(res.json().errors.items.map((i: { field: string }) => i.field)).toEqual(
      expect.arrayContaining(["entrypoints.0.fields.0.main", "redirectUris"]),
    );
    expect(await count()).toBe(before);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it("answers unknown routes and methods in the envelope", async () => {
    expectEnvelope(await s.app.inject({ method: "GET", url: "/nope" }), 404, "route_not_found");
    expectEnvelope(await s.app.inject({ method: "DELETE", url: "/v2/apps" }), 404, "route_not_found");
    expectEnvelope(
      await s.app.inject({ method: "GET", url: "/v2/apps/123456", headers: { authorization: `Bearer ${token}` } }),
      404,
      "application_not_found",
    );
  });

  it("keeps its probes", async () => {
    expect((await s.app.inject({ method: "GET", url: "/healthz" })).json()).toEqual({ status: "ok" });
    expect((await s.app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
    const metrics = await s.app.inject({ method: "GET", url: "/metrics" });
    expect(metrics.body).toContain("gatehouse_rpc_duration_seconds");
  });
});
