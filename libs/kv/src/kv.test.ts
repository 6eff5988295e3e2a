import { afterAll, describe, expect, it } from "vitest";
import { redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { openKv, type Kv } from "./index.ts";

const stores: [string, (prefix: string) => Kv][] = [
  ["Redis", (prefix) => openKv({ redisUrl: redisTestUrl(), prefix })],
  ["memory", () => openKv({})],
];

describe.each(stores)("kv on %s", (_name, open) => {
  const prefix = uniquePrefix();
  const kv = open(prefix);
  afterAll(() => kv.close());

  it("sets, expires and deletes", async () => {
    await kv.set("a", "1", 1);
    expect(await kv.get("a")).toBe("1");
    await new Promise((r) => setTimeout(r, 1100));
    expect(await kv.get("a")).toBeNull();
    await kv.set("b", "2");
    await kv.del("b");
    expect(await kv.get("b")).toBeNull();
  });
  it("reads many keys in one call and sets many", async () => {
    expect(await kv.getMany([])).toEqual([]);
    await kv.setMany([
      { key: "m1", value: "1", ttlSeconds: 60 },
      { key: "m2", value: "2" },
    ]);
    expect(await kv.getMany(["m1", "missing", "m2"])).toEqual(["1", null, "2"]);
    await kv.del("m2");
  });
  it("lets exactly one of many racing callers set or take a key", async () => {
    const sets = await Promise.all(Array.from({ length: 16 }, () => kv.setIfAbsent("once", "x", 10)));
    expect(sets.filter(Boolean)).toHaveLength(1);
    const takes = await Promise.all(Array.from({ length: 16 }, () => kv.take("once")));
    expect(takes.filter((t) => t === "x")).toHaveLength(1);
  });
  it("compare-and-set: only on the expected value, one winner of many, ttl kept or replaced", async () => {
    expect(await kv.compareAndSet("cas-missing", "", "x")).toBe(false);
    expect(await kv.get("cas-missing")).toBeNull();
    await kv.set("cas", "v1", 1);
    expect(await kv.compareAndSet("cas", "other", "v2")).toBe(false);
    expect(await kv.get("cas")).toBe("v1");
    const wins = await Promise.all(Array.from({ length: 16 }, (_, i) => kv.compareAndSet("cas", "v1", `v2-${i}`)));
    expect(wins.filter(Boolean)).toHaveLength(1);
    expect(await kv.get("cas")).toBe(`v2-${wins.indexOf(true)}`);
    // Without a ttl the key kept its 1 s lifetime; with one it gets the new one.
    await kv.set("cas-ttl", "a", 1);
    expect(await kv.compareAndSet("cas-ttl", "a", "b", 60)).toBe(true);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await kv.get("cas")).toBeNull();
    expect(await kv.get("cas-ttl")).toBe("b");
  });
  it("writes a second key with a compare-and-set only when it matched", async () => {
    await kv.set("cas-pair", "v1", 60);
    expect(
      await kv.compareAndSet("cas-pair", "stale", "v2", 60, { key: "cas-pair-also", value: "lost", ttlSeconds: 60 }),
    ).toBe(false);
    expect(await kv.get("cas-pair-also")).toBeNull();
    expect(
      await kv.compareAndSet("cas-pair", "v1", "v2", 60, { key: "cas-pair-also", value: "won", ttlSeconds: 1 }),
    ).toBe(true);
    expect(await kv.getMany(["cas-pair", "cas-pair-also"])).toEqual(["v2", "won"]);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await kv.getMany(["cas-pair", "cas-pair-also"])).toEqual(["v2", null]);
  });
  it("counts within a window", async () => {
    const counts = await Promise.all(Array.from({ length: 10 }, () => kv.incr("c", 60)));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(counts[0]!.ttlSeconds).toBeGreaterThan(0);
    expect(await kv.ping()).toBe(true);
  });
  it("delivers a published notice to every subscriber of the channel until it stops listening", async () => {
    // Another process on the same Redis and prefix (in memory there is no other process).
    const other = kv.kind === "redis" ? open(prefix) : kv;
    const got: string[] = [];
    const stop = await kv.subscribe("changed", (m) => got.push(`a:${m}`));
    const stopOther = await other.subscribe("changed", (m) => got.push(`b:${m}`));
    await kv.subscribe("elsewhere", (m) => got.push(`x:${m}`));
    await kv.publish("changed", "app-1");
    // This process hears it at once (and with Redis once more when the echo comes back): wait for the other's.
    expect(got).toContain("a:app-1");
    if (kv.kind === "redis") await expect.poll(() => got).toContain("b:app-1"); // another process (connection) hears it too
    await stop();
    await stopOther();
    await kv.publish("changed", "app-2");
    await new Promise((r) => setTimeout(r, 100));
    expect(got.some((m) => m.endsWith("app-2"))).toBe(false);
    if (other !== kv) await other.close();
  });
  it("subscribes even when the process does not run for longer than a command's timeout right after asking", async () => {
    // A new connection's connect, ready check and SUBSCRIBE wait for the event loop, as on a CPU-starved machine.
    const fresh = open(prefix);
    try {
      const subscribed = fresh
        .subscribe("starved", () => undefined)
        .then(
          () => "subscribed",
          (e: unknown) => e,
        );
      const until = Date.now() + 1_200;
      while (Date.now() < until); // busy: no timer, socket or reply is handled meanwhile
      expect(await subscribed).toBe("subscribed");
    } finally {
      if (fresh !== kv) await fresh.close();
    }
  });
  it("takes one back from a live counter, never below zero and never reviving it", async () => {
    await kv.incr("d", 60);
    await kv.incr("d", 60);
    await kv.decr("d");
    expect((await kv.incr("d", 60)).count).toBe(2);
    await kv.decr("d-missing");
    expect(await kv.get("d-missing")).toBeNull();
    await kv.set("d-zero", "0", 60);
    await kv.decr("d-zero");
    expect(await kv.get("d-zero")).toBe("0");
  });
  it("counts several counters in one call, each in its own window, and takes them back in one batch", async () => {
    await kv.incr("many-b", 60);
    const counts = await kv.incrMany(["many-a", "many-b", "many-a"], 30);
    expect(counts.map((c) => c.count)).toEqual([1, 2, 2]);
    expect(counts[0]!.ttlSeconds).toBeLessThanOrEqual(30);
    expect(counts[1]!.ttlSeconds).toBeGreaterThan(30); // its window began with the first incr
    expect(await kv.incrMany([], 30)).toEqual([]);
    await kv.batch(["many-a", "many-b", "many-missing"].map((key) => ({ op: "decr" as const, key })));
    expect(await kv.getMany(["many-a", "many-b", "many-missing"])).toEqual(["1", "1", null]);
  });
  it("batch: writes in order, then reads what they left, in one call", async () => {
    expect(await kv.batch([])).toEqual([]);
    await kv.setMany([
      { key: "b-gone", value: "x" },
      { key: "b-count", value: "2", ttlSeconds: 60 },
      { key: "b-zero", value: "0", ttlSeconds: 60 },
    ]);
    const read = await kv.batch(
      [
        { op: "set", key: "b-short", value: "s", ttlSeconds: 1 },
        { op: "set", key: "b-kept", value: "k" },
        { op: "del", key: "b-gone" },
        { op: "decr", key: "b-count" },
        { op: "decr", key: "b-zero" },
        { op: "decr", key: "b-missing" },
        { op: "set", key: "b-kept", value: "k2" },
      ],
      ["b-kept", "b-gone", "b-count", "b-zero", "b-missing", "b-short", "b-nothing"],
    );
    expect(read).toEqual(["k2", null, "1", "0", null, "s", null]);
    expect(await kv.batch([], ["b-count", "b-kept"])).toEqual(["1", "k2"]);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await kv.getMany(["b-short", "b-kept", "b-count"])).toEqual([null, "k2", "1"]);
  });
  it("expiring sets: each member ends on its own, the soonest-ending leave beyond the cap, the key ends with the last", async () => {
    const t = Date.now();
    const add = (key: string, member: string, until: number, keep = 3) => ({
      op: "addMember" as const,
      key,
      member,
      until,
      now: Date.now(),
      keep,
    });
    expect(await kv.members("set", t)).toEqual([]);
    await kv.batch([add("set", "a", t + 60_000), add("set", "b", t + 1_000), add("set", "c", t + 30_000)]);
    expect(await kv.members("set", t)).toEqual(["b", "c", "a"]);
    expect(await kv.members("set", t + 1_000)).toEqual(["c", "a"]);
    // Added again: its new end. Over the cap: the soonest-ending leaves.
    await kv.batch([add("set", "c", t + 90_000), add("set", "d", t + 45_000)]);
    expect(await kv.members("set", t)).toEqual(["d", "a", "c"]);
    await kv.batch([add("set", "e", t + 20_000, 4)]);
    expect(await kv.members("set", t)).toEqual(["e", "d", "a", "c"]);
    // A member that ended leaves when the set is next written; the key lives until its last member's end.
    await kv.batch([
      add("set", "g", Date.now() + 500, 10),
      add("set-2", "x", Date.now() + 700, 10),
      add("set-2", "y", Date.now() + 1_500, 10),
    ]);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await kv.members("set", Date.now())).toEqual(["e", "d", "a", "c"]);
    expect(await kv.members("set", 0)).toEqual(["g", "e", "d", "a", "c"]);
    expect(await kv.batch([add("set", "f", Date.now() + 60_000, 10)], ["set-other"])).toEqual([null]);
    expect(await kv.members("set", 0)).toEqual(["e", "d", "a", "f", "c"]);
    expect(await kv.members("set-2", 0)).toEqual(["x", "y"]);
    await new Promise((r) => setTimeout(r, 700));
    expect(await kv.members("set-2", 0)).toEqual([]);
  });
});
