import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pwnedPasswords } from "./pwned.ts";

// A local range API (the Have I Been Pwned shape) that records what it was asked.
const breached = "correct horse battery";
const sha1 = (s: string) => createHash("sha1").update(s).digest("hex").toUpperCase();
const asked: string[] = [];
let mode: "ok" | "slow" | "error" = "ok";
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push(req.url ?? "");
    if (mode === "error") return res.writeHead(503).end();
    if (mode === "slow") return void setTimeout(() => res.end(""), 3000);
    const prefix = req.url!.split("/").pop()!;
    const hit = sha1(breached);
    const lines = ["0018A45C4D1DEF81644B54AB7F969B88D65:1", "00000000000000000000000000000000000:0"];
    if (hit.startsWith(prefix)) lines.push(`${hit.slice(5)}:3861493`);
    res.writeHead(200, { "content-type": "text/plain" }).end(lines.join("\r\n"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("breached passwords (k-anonymity range API)", () => {
  it("sends only the first 5 hex characters of the SHA-1 and finds the suffix", async () => {
    mode = "ok";
    asked.length = 0;
    const check = pwnedPasswords({ url });
    expect(await check(breached)).toBe(true);
    expect(await check("an unlisted passphrase 7")).toBe(false);
    expect(asked).toEqual([
      `/range/${sha1(breached).slice(0, 5)}`,
      `/range/${sha1("an unlisted passphrase 7").slice(0, 5)}`,
    ]);
    for (const path of asked) expect(path).not.toContain(sha1(breached).slice(5, 10));
  });

  it("fails open: an error or a slow answer (past the timeout) is told and passes", async () => {
    const failures: unknown[] = [];
    const check = pwnedPasswords({ url, timeoutMs: 300, onUnavailable: (e) => failures.push(e) });
    mode = "error";
    expect(await check(breached)).toBeUndefined();
    mode = "slow";
    const started = Date.now();
    expect(await check(breached)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(failures).toHaveLength(2);
    const down = pwnedPasswords({ url: "http://127.0.0.1:1", onUnavailable: (e) => failures.push(e) });
    expect(await down(breached)).toBeUndefined();
    expect(failures).toHaveLength(3);
  });
});
