import { openKv, type Kv } from "@gatehouse/kv";
import { redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { afterEach, describe, expect, it } from "vitest";
import { altcha } from "./altcha.ts";

const stores: [string, () => Kv][] = [
  ["Redis", () => openKv({ redisUrl: redisTestUrl(), prefix: uniquePrefix() })],
  ["in-process", () => openKv({})],
];

describe.each(stores)("ALTCHA with the %s kv", (_name, open) => {
  const kvs: Kv[] = [];
  afterEach(async () => {
    for (const kv of kvs.splice(0)) await kv.close();
  });
  const make = (kv: Kv, ttlSeconds?: number) =>
    altcha({ secret: "s".repeat(32), keySecret: "k".repeat(32), kv, counter: [100, 2000], ttlSeconds });

  /** What the widget posts: base64 JSON of the challenge and the solution the SHA-256 search found. */
  async function solve(check: ReturnType<typeof make>) {
    const challenge = await check.challenge();
    const solution = await solveChallenge({ challenge, deriveKey });
    return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
  }

  it("a solved challenge passes once; a replay, a forgery or nothing is refused", async () => {
    const kv = open();
    kvs.push(kv);
    const check = make(kv);
    const payload = await solve(check);
    expect(await check.verify(payload)).toBe("ok");
    expect(await check.verify(payload)).toBe("replayed");
    expect(await check.verify(undefined)).toBe("missing");
    expect(await check.verify("not base64 json")).toBe("invalid");
    // The derived key is the proof (the counter only finds it): a made-up key fails the signature of the key.
    const forged = JSON.parse(Buffer.from(await solve(check), "base64").toString()) as {
      solution: { derivedKey: string };
    };
    forged.solution.derivedKey = "00".repeat(32);
    expect(await check.verify(Buffer.from(JSON.stringify(forged)).toString("base64"))).toBe("invalid");
    // Another deployment's secret does not sign our challenges.
    const other = altcha({ secret: "o".repeat(32), keySecret: "p".repeat(32), kv, counter: [100, 2000] });
    expect(await other.verify(await solve(check))).toBe("invalid");
  });

  it("an expired challenge is refused", async () => {
    const kv = open();
    kvs.push(kv);
    const check = make(kv, 1);
    const payload = await solve(check);
    await new Promise((r) => setTimeout(r, 2100));
    expect(await check.verify(payload)).toBe("invalid");
  });
});

describe("ALTCHA across replicas", () => {
  it("two processes' checkers over one Redis accept a solution once", async () => {
    const prefix = uniquePrefix();
    const a = openKv({ redisUrl: redisTestUrl(), prefix });
    const b = openKv({ redisUrl: redisTestUrl(), prefix });
    try {
      const opts = { secret: "s".repeat(32), keySecret: "k".repeat(32), counter: [100, 2000] as [number, number] };
      const one = altcha({ ...opts, kv: a });
      const two = altcha({ ...opts, kv: b });
      const challenge = await one.challenge();
      const solution = await solveChallenge({ challenge, deriveKey });
      const payload = Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
      const verdicts = await Promise.all([one.verify(payload), two.verify(payload)]);
      expect(verdicts.sort()).toEqual(["ok", "replayed"]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
