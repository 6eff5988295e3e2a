import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { errorFacts } from "@gatehouse/errors";
import { openKv, RESUBSCRIBED } from "./index.ts";

describe("kv on an unreachable Redis", () => {
  it("fails closed within the command timeout, as STORE_UNAVAILABLE (503, retry after 1 s)", async () => {
    // A port that accepts connections and never answers: the hung-server case, not just a refused connection.
    const silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", () => r()));
    const { port } = silent.address() as { port: number };
    const kv = openKv({ redisUrl: `redis://127.0.0.1:${port}`, commandTimeoutMs: 300 });
    try {
      for (const op of [
        () => kv.get("a"),
        () => kv.getMany(["a", "b"]),
        () => kv.incr("c", 10),
        () => kv.set("d", "1", 10),
        () => kv.batch([{ op: "del", key: "e" }], ["f"]),
      ]) {
        const started = performance.now();
        const err = await op().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(performance.now() - started).toBeLessThan(1_000);
        const facts = errorFacts(err);
        expect(facts.reason).toBe("STORE_UNAVAILABLE");
        expect(facts.metadata.retry_after).toBe("1");
      }
      expect(await kv.ping()).toBe(false);
    } finally {
      await kv.close();
      silent.close();
    }
  });

  it("subscribes without Redis (a process starts anyway), and receives notices once Redis answers", async () => {
    // A free port with nothing on it (connections refused), where a redis-server starts later.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", () => r()));
    const { port } = probe.address() as { port: number };
    await new Promise((r) => probe.close(r));
    const url = `redis://127.0.0.1:${port}`;
    const kv = openKv({ redisUrl: url, commandTimeoutMs: 300 });
    let server: ChildProcess | undefined;
    try {
      const got: string[] = [];
      const stop = await kv.subscribe("changed", (m) => got.push(m));
      server = spawn(
        "redis-server",
        ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        { stdio: "ignore" },
      );
      const publisher = openKv({ redisUrl: url });
      try {
        for (let i = 0; i < 100 && !got.includes("app-1"); i++) {
          await publisher.publish("changed", "app-1").catch(() => undefined);
          await new Promise((r) => setTimeout(r, 100));
        }
      } finally {
        await publisher.close();
      }
      expect(got).toContain("app-1");
      await stop();
    } finally {
      await kv.close();
      server?.kill("SIGKILL");
    }
  }, 20_000);

  it("tells its listeners RESUBSCRIBED when the connection comes back after a loss (the gap's notices are gone)", async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", () => r()));
    const { port } = probe.address() as { port: number };
    await new Promise((r) => probe.close(r));
    const url = `redis://127.0.0.1:${port}`;
    const start = () =>
      spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
        stdio: "ignore",
      });
    let server = start();
    const kv = openKv({ redisUrl: url, commandTimeoutMs: 300 });
    try {
      const got: string[] = [];
      for (let i = 0; i < 100 && !(await kv.ping()); i++) await new Promise((r) => setTimeout(r, 50));
      const stop = await kv.subscribe("changed", (m) => got.push(m));
      expect(got).toEqual([]);
      server.kill("SIGKILL");
      await new Promise((r) => server.once("exit", r));
      server = start();
      for (let i = 0; i < 150 && !got.includes(RESUBSCRIBED); i++) await new Promise((r) => setTimeout(r, 100));
      expect(got).toContain(RESUBSCRIBED);
      // Subscribed again: a notice after the comeback arrives.
      for (let i = 0; i < 100 && !got.includes("app-2"); i++) {
        await kv.publish("changed", "app-2").catch(() => undefined);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(got.filter((m) => m === "app-2").length).toBeGreaterThan(0);
      await stop();
    } finally {
      await kv.close();
      server.kill("SIGKILL");
    }
  }, 30_000);
});
