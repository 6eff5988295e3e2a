import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "../stack-helpers.ts";

// Issue 15 finding 2 over a real socket (app.inject never reaches Node's HTTP
// parser): errors raised before routing answer the contract envelope (RFC
// 6749 form on /oauth2/*), and a request that stalls is cut off with 408.

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  ms: number;
}

/** Writes `chunks` to a fresh connection (the last one left open when `stall`) and reads until the server closes. */
function raw(port: number, chunks: (string | Buffer)[], timeoutMs = 15_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, "127.0.0.1");
    const received: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on("connect", () => {
      for (const c of chunks) socket.write(c);
    });
    socket.on("data", (d) => received.push(d));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      const text = Buffer.concat(received).toString("utf8");
      const [head = "", body = ""] = text.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body, ms: performance.now() - started });
    });
  });
}

function expectEnvelope(a: RawAnswer, status: number, code: string) {
  expect(a.status, a.body).toBe(status);
  expect(a.headers["content-type"]).toMatch(/^application\/json/);
  const body = JSON.parse(a.body);
  expect(body.result).toEqual({ status, elapsed: expect.any(Number) });
  expect(body.errors).toEqual({ code, message: expect.any(String), details: expect.any(String), items: [] });
}

describe("errors before routing, over a socket", () => {
  let s: TestStack;
  let port: number;
  beforeAll(async () => {
    s = await startTestStack({ embedded: true, env: { REQUEST_TIMEOUT: "2" } });
    await s.app.listen({ port: 0, host: "127.0.0.1" });
    port = (s.app.server.address() as AddressInfo).port;
  });
  afterAll(() => s?.close());

  it("answers headers over 16 KB with 431 in the envelope (OAuth form on /oauth2/*)", async () => {
    const big = `x-big: ${"a".repeat(17 * 1024)}\r\n`;
    expectEnvelope(await raw(port, [`GET /healthz HTTP/1.1\r\nhost: x\r\n${big}\r\n`]), 431, "headers_too_large");
    const oauth = await raw(port, [`POST /oauth2/token HTTP/1.1\r\nhost: x\r\n${big}\r\n`]);
    expect(oauth.status).toBe(431);
    expect(JSON.parse(oauth.body)).toEqual({ error: "invalid_request", error_description: expect.any(String) });
  });

  it("answers a NUL in a header with 400 in the envelope", async () => {
    expectEnvelope(
      await raw(port, ["GET /healthz HTTP/1.1\r\nhost: x\r\nx-a: a\u0000b\r\n\r\n"]),
      400,
      "malformed_request",
    );
  });

  it("answers a malformed request line with 400 in the envelope", async () => {
    expectEnvelope(await raw(port, ["GET\r\n\r\n"]), 400, "malformed_request");
    expectEnvelope(await raw(port, ["G@T / HTTP/1.1\r\nhost: x\r\n\r\n"]), 400, "malformed_request");
    expectEnvelope(await raw(port, ["GET / HTTP/9.9\r\nhost: x\r\n\r\n"]), 400, "malformed_request");
  });

  it("answers raw bytes that are not UTF-8 or a NUL in the URL with 400", async () => {
    const bad = await raw(port, [
      Buffer.concat([
        Buffer.from("GET /v2/apps/"),
        Buffer.from([0xff, 0xfe]),
        Buffer.from(" HTTP/1.1\r\nhost: x\r\n\r\n"),
      ]),
    ]);
    expectEnvelope(bad, 400, "malformed_request");
    expectEnvelope(
      await raw(port, ["GET /v2/apps/%00 HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n"]),
      400,
      "malformed_request",
    );
    const oauth = await raw(port, [
      "GET /oauth2/authorize?client_id=%00 HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
    ]);
    expect(oauth.status).toBe(400);
    expect(JSON.parse(oauth.body)).toEqual({ error: "invalid_request", error_description: expect.any(String) });
  });

  it("answers an HTTP/1.1 request without Host 400, an Expect it cannot meet 417 and a CONNECT 400, in the envelope (OAuth form on /oauth2/*)", async () => {
    expectEnvelope(await raw(port, ["GET /healthz HTTP/1.1\r\nconnection: close\r\n\r\n"]), 400, "malformed_request");
    const oauth = await raw(port, ["POST /oauth2/token HTTP/1.1\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"]);
    expect(oauth.status).toBe(400);
    expect(JSON.parse(oauth.body)).toEqual({ error: "invalid_request", error_description: expect.any(String) });
    // HTTP/1.0 needs no Host.
    expect((await raw(port, ["GET /healthz HTTP/1.0\r\n\r\n"])).status).toBe(200);
    expectEnvelope(
      await raw(port, ["POST /v2/apps HTTP/1.1\r\nhost: x\r\nexpect: 200-ok\r\ncontent-length: 0\r\n\r\n"]),
      417,
      "expectation_failed",
    );
    const expectOAuth = await raw(port, [
      "POST /oauth2/token HTTP/1.1\r\nhost: x\r\nexpect: nope\r\ncontent-length: 0\r\n\r\n",
    ]);
    expect(expectOAuth.status).toBe(417);
    expect(JSON.parse(expectOAuth.body)).toEqual({ error: "invalid_request", error_description: expect.any(String) });
    expectEnvelope(
      await raw(port, ["CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n"]),
      400,
      "malformed_request",
    );
  });

  it("cuts off a body that stalls with 408 in the envelope", async () => {
    // With a valid token: the bearer guard answers before the body otherwise (issue 10).
    const token = await s.operatorToken("apps:write");
    const stalled = await raw(port, [
      `POST /v2/apps HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n`,
      '{"objectTy',
    ]);
    expectEnvelope(stalled, 408, "request_timeout");
    // REQUEST_TIMEOUT=2 here; Node checks once a second
    expect(stalled.ms).toBeGreaterThan(1500);
    expect(stalled.ms).toBeLessThan(5000);
    const oauth = await raw(port, [
      "POST /oauth2/token HTTP/1.1\r\nhost: x\r\ncontent-type: application/x-www-form-urlencoded\r\ncontent-length: 1000\r\n\r\n",
      "grant_type=",
    ]);
    expect(oauth.status).toBe(408);
    expect(JSON.parse(oauth.body)).toEqual({ error: "invalid_request", error_description: expect.any(String) });
  });

  it("refuses a stalled body without a token at once (401, before the body) and closes the connection: no 408 after it", async () => {
    const refused = await raw(port, [
      "POST /v2/apps HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n",
      '{"objectTy',
    ]);
    expectEnvelope(refused, 401, "unauthenticated");
    expect(refused.headers.connection).toBe("close");
    expect(refused.headers["www-authenticate"]).toMatch(/^Bearer /);
    expect(refused.ms).toBeLessThan(1500);
  });

  it("cuts off headers that stall with 408 in the envelope", async () => {
    const stalled = await raw(port, ["GET /healthz HTTP/1.1\r\nhost: x\r\nx-slow: "]);
    expectEnvelope(stalled, 408, "request_timeout");
    expect(stalled.ms).toBeLessThan(4000);
  });

  it("still serves a request after all that", async () => {
    const ok = await raw(port, ["GET /healthz HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n"]);
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toEqual({ status: "ok" });
  });
});

describe("request timeouts by default", () => {
  it("gives a client 20 s for a request and 10 s for its headers, checked every second", async () => {
    const s = await startTestStack({ embedded: true });
    try {
      expect(s.app.server.requestTimeout).toBe(20_000);
      expect(s.app.server.headersTimeout).toBe(10_000);
      // under the contract's 30 s even with the check interval added
      expect(s.app.server.requestTimeout + 1000).toBeLessThanOrEqual(30_000);
    } finally {
      await s.close();
    }
  });
});
