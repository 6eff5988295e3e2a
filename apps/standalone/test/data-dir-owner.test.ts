import { mkdtemp, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort, runEntry, stopChild, waitReady, type Spawned } from "./processes.ts";
import { seedEmbeddedDataDir } from "./stack-helpers.ts";

// A process killed by a signal has exited with exitCode null: signalCode tells that it has.
const exitOf = (child: Spawned) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise<number | null>((r) => child.once("exit", (code) => r(code)));

const basicOf = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

async function operatorToken(base: string, id: string, secret: string): Promise<number> {
  const res = await fetch(`${base}/oauth2/token`, {
    method: "POST",
    headers: { authorization: basicOf(id, secret), "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials",
  });
  await res.body?.cancel();
  return res.status;
}

// Issue 15, finding 6: a CLI on the data directory of a running server used to
// write into the same PGlite files; the server's checkpoint then handed out the
// CLI's transaction ids again and every later INSERT ... ON CONFLICT spun forever.
describe("one owner per embedded DATA_DIR", () => {
  it("a CLI or a second server on a running server's DATA_DIR refuses at once; the directory stays usable", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "gh-owner-"));
    await seedEmbeddedDataDir(dataDir);
    const env = { DATA_DIR: dataDir, HOST: "127.0.0.1", LOG_LEVEL: "warn", DATABASE_URL: "", REDIS_URL: "" };
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let server = await runEntry("main", [], { ...env, PORT: String(port) });
    try {
      await waitReady(`${base}/readyz`, server);
      // The three at once: each must give up on its own while the owner keeps running.
      const others = [
        await runEntry("cli", ["bootstrap-operator", "--client-id", "late-op"], env),
        await runEntry("cli", ["migrate"], env),
        await runEntry("main", [], { ...env, PORT: String(await freePort()) }),
      ];
      for (const other of others) {
        expect(await exitOf(other)).toBe(1);
        // Refused while the owner runs: one that waited for the owner to stop would never get here (it stops below only).
        expect(server.exitCode).toBeNull();
        const lines = other.output().trim().split("\n");
        expect(lines).toHaveLength(1);
        // The live owner named: the first look at the lock refused, not the give-up after failed takeovers ("is locked by").
        expect(lines[0]).toMatch(
          new RegExp(
            `^DATA_DIR ${dataDir} is in use by another Gatehouse process \\(pid ${server.pid}, "main.js", since `,
          ),
        );
      }
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
    } finally {
      expect(await stopChild(server)).toBe(0);
    }
    expect(await readdir(dataDir)).not.toContain("gatehouse.lock");

    // Stopped: the CLI owns the directory now, and the restarted server sees what it wrote.
    const boot = await runEntry("cli", ["bootstrap-operator", "--client-id", "late-op"], env);
    expect(await exitOf(boot)).toBe(0);
    const printed = JSON.parse(boot.output().trim().split("\n").pop()!) as { client_secret: string };
    server = await runEntry("main", [], { ...env, PORT: String(port) });
    try {
      await waitReady(`${base}/readyz`, server);
      expect(await operatorToken(base, "late-op", printed.client_secret)).toBe(200);
      // kill -9 leaves the lock behind; the next start takes it over at once.
      server.kill("SIGKILL");
      await exitOf(server);
      expect(await readdir(dataDir)).toContain("gatehouse.lock");
      server = await runEntry("main", [], { ...env, PORT: String(port) });
      await waitReady(`${base}/readyz`, server);
      expect(await operatorToken(base, "late-op", printed.client_secret)).toBe(200);
      // And a CLI after it still refuses and leaves the data alone.
      const again = await runEntry("cli", ["bootstrap-operator", "--client-id", "late-op"], env);
      expect(await exitOf(again)).toBe(1);
      expect(await operatorToken(base, "late-op", printed.client_secret)).toBe(200);
    } finally {
      expect(await stopChild(server)).toBe(0);
    }
  }, 180_000);
});
