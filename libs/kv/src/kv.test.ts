import { afterAll, describe, expect, it } from "vitest";
import { redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { openKv, type Kv } from "./index.ts";

const stores: [string, () => Kv][] = [
  ["Redis", () => openKv({ redisUrl: redisTestUrl(), prefix: uniquePrefix() })],
  ["memory", () => openKv({})],
];

describe.each(stores)("kv on %s", (_name, open) => {
  const kv = open();
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
  it("lets exactly one of many racing callers set or take a key", async () => {
    const sets = await Promise.all(Array.from({ length: 16 }, () => kv.setIfAbsent("once", "x", 10)));
    expect(sets.filter(Boolean)).toHaveLength(1);
    const takes = await Promise.all(Array.from({ length: 16 }, () => kv.take("once")));
    expect(takes.filter((t) => t === "x")).toHaveLength(1);
  });
  it("counts within a window", async () => {
    const counts = await Promise.all(Array.from({ length: 10 }, () => kv.incr("c", 60)));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(counts[0]!.ttlSeconds).toBeGreaterThan(0);
    expect(await kv.ping()).toBe(true);
  });
});
