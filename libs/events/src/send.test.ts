import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { isPrivateAddress } from "./addresses.ts";
import { nextAttemptAt, DEFAULT_RETRY_SCHEDULE } from "./schedule.ts";
import { newWebhookSecret, signatureHeaders } from "./sign.ts";
import { postWebhook } from "./send.ts";
import { resolvedUrlProblem, urlProblem } from "./target.ts";

// The delivery's own checks, against a real loopback server: the address is
// resolved and checked at every attempt and the connection goes to that
// address (a name cannot rebind in between), redirects are not followed, and
// an answer that does not come is a failed attempt after the timeout.
describe("postWebhook", () => {
  const hits: { path: string; host: string }[] = [];
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push({ path: req.url ?? "", host: req.headers.host ?? "" });
      req.resume();
      if (req.url === "/redirect") res.writeHead(302, { location: "/elsewhere" }).end();
      else if (req.url === "/slow") setTimeout(() => res.writeHead(200).end(), 2000);
      else res.writeHead(204).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const body = JSON.stringify({ id: "evt_1", type: "user.created" });
  const headers = signatureHeaders([newWebhookSecret()], "evt_1", body, new Date());

  it("connects to the address it checked: a name resolved to loopback is refused without the flag, reached with it", async () => {
    const toLoopback = async () => [{ address: "127.0.0.1", family: 4 }];
    const before = hits.length;
    const refused = await postWebhook(`https://hooks.example.test:${port}/x`, body, headers, {
      allowPrivate: false,
      resolve: toLoopback,
    });
    expect(refused).toMatchObject({ refused: true, error: expect.stringMatching(/loopback or private/) });
    expect(hits.length).toBe(before);
    // The name exists nowhere: the request can only have gone to the address the resolver gave.
    const ok = await postWebhook(`http://hooks.example.test:${port}/x`, body, headers, {
      allowPrivate: true,
      resolve: toLoopback,
    });
    expect(ok).toEqual({ status: 204 });
    expect(hits.at(-1)).toEqual({ path: "/x", host: `hooks.example.test:${port}` });
  });

  it("http, even allowed, goes only to a name whose every address is loopback or private", async () => {
    const allowed = { allowPrivate: true };
    const toPublic = async () => [{ address: "93.184.216.34", family: 4 }];
    const toPrivate = async () => [{ address: "10.0.0.5", family: 4 }];
    const nowhere = async () => Promise.reject(new Error("ENOTFOUND"));
    expect(await resolvedUrlProblem("http://hooks.example.test/x", allowed, toPublic)).toMatchObject({
      code: "invalid_scheme",
    });
    expect(await resolvedUrlProblem("http://hooks.example.test/x", allowed, nowhere)).not.toBeNull();
    expect(await resolvedUrlProblem("http://receiver.internal/x", allowed, toPrivate)).toBeNull();
    expect(await resolvedUrlProblem("http://localhost:8080/x", allowed, toPublic)).toBeNull();
    expect(await resolvedUrlProblem("https://hooks.example.test/x", allowed, nowhere)).toBeNull();
    const before = hits.length;
    const res = await postWebhook(`http://hooks.example.test:${port}/x`, body, headers, {
      ...allowed,
      resolve: toPublic,
    });
    expect(res).toMatchObject({ refused: true, error: expect.stringMatching(/http only/) });
    expect(hits.length).toBe(before);
  });

  it("a name with any private address is refused, even beside a public one", async () => {
    const mixed = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "10.0.0.5", family: 4 },
    ];
    const res = await postWebhook("https://hooks.example.test/x", body, headers, {
      allowPrivate: false,
      resolve: mixed,
    });
    expect(res).toMatchObject({ refused: true });
  });

  it("does not follow redirects and gives up on a slow answer after the timeout", async () => {
    const opts = { allowPrivate: true, timeoutMs: 300 };
    expect(await postWebhook(`http://127.0.0.1:${port}/redirect`, body, headers, opts)).toEqual({ status: 302 });
    expect(hits.filter((h) => h.path === "/elsewhere")).toEqual([]);
    const started = Date.now();
    const slow = await postWebhook(`http://127.0.0.1:${port}/slow`, body, headers, opts);
    expect(slow).toMatchObject({ error: expect.stringMatching(/no answer within 300 ms/) });
    expect(Date.now() - started).toBeLessThan(1500);
  });
});

describe("webhook targets, signatures and the retry schedule", () => {
  it("refuses non-https, credentials and private hosts unless allowed", () => {
    const strict = { allowPrivate: false };
    expect(urlProblem("https://hooks.example.com/in", strict)).toBeNull();
    for (const bad of ["http://hooks.example.com", "https://127.0.0.1", "https://[fd00::1]/", "https://a.localhost/"])
      expect(urlProblem(bad, strict), bad).not.toBeNull();
    expect(urlProblem("http://127.0.0.1:8080/in", { allowPrivate: true })).toBeNull();
    // Even allowed, http is for loopback and private ranges only: a public address needs https.
    expect(urlProblem("http://93.184.216.34/in", { allowPrivate: true })).toMatchObject({ code: "invalid_scheme" });
    for (const a of [
      "127.0.0.1",
      "10.0.0.1",
      "172.20.0.1",
      "192.168.0.1",
      "169.254.169.254",
      "::1",
      "fe80::1",
      "::ffff:10.0.0.1",
    ])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ["93.184.216.34", "2606:2800:220:1::1", "::ffff:93.184.216.34"])
      expect(isPrivateAddress(a), a).toBe(false);
  });

  it("signs with every secret given; the standardwebhooks library verifies with either", () => {
    const [a, b] = [newWebhookSecret(), newWebhookSecret()];
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const h = signatureHeaders([a, b], "evt_x", body(), new Date());
    expect(h["webhook-signature"]!.split(" ")).toHaveLength(2);
    for (const secret of [a, b]) expect(new Webhook(secret).verify(body(), h)).toEqual({ ok: true });
    expect(() => new Webhook(newWebhookSecret()).verify(body(), h)).toThrow();
    function body() {
      return JSON.stringify({ ok: true });
    }
  });

  it("retries with growing, jittered waits for at least 24 hours, then gives up", () => {
    const start = 0;
    let now = start;
    let attempts = 1;
    const waits: number[] = [];
    for (;;) {
      const at = nextAttemptAt(attempts, start, now);
      if (at === null) break;
      waits.push(at - now);
      now = at;
      attempts++;
    }
    expect(now - start).toBeGreaterThanOrEqual(DEFAULT_RETRY_SCHEDULE.giveUpAfterMs);
    expect(waits[0]).toBeGreaterThanOrEqual(4000);
    expect(waits[0]).toBeLessThanOrEqual(6000);
    expect(Math.max(...waits)).toBeLessThanOrEqual(DEFAULT_RETRY_SCHEDULE.capMs * 1.2);
    expect(attempts).toBeGreaterThan(8);
    expect(attempts).toBeLessThan(20);
  });
});
