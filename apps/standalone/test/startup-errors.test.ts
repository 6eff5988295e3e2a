import { mkdtemp } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort, runEntry } from "./processes.ts";
import { seedEmbeddedDataDir } from "./stack-helpers.ts";

// Contract section 1: PORT, HOST and DATABASE_URL are honoured; what makes a
// start impossible stops `npm start` with one line naming it (as `serve` and
// the CLI do), never a stack trace.
describe("npm start on a PORT in use", () => {
  it("exits 1 with one line naming HOST:PORT", async () => {
    const port = await freePort();
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(port, "127.0.0.1", () => r()));
    try {
      const dataDir = await mkdtemp(join(tmpdir(), "gh-port-"));
      await seedEmbeddedDataDir(dataDir);
      const child = await runEntry("main", [], {
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: "127.0.0.1",
        LOG_LEVEL: "warn",
        DATABASE_URL: "",
        REDIS_URL: "",
      });
      const code = await new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
      expect(code).toBe(1);
      expect(child.output().trim().split("\n")).toEqual([
        `cannot listen on 127.0.0.1:${port}: the address is in use (another process holds PORT ${port})`,
      ]);
    } finally {
      await new Promise<void>((r) => holder.close(() => r()));
    }
  }, 60_000);
});

describe("npm start with a DATABASE_URL it cannot use", () => {
  it("exits 1 with one line naming the database (password hidden) and why", async () => {
    const deadPort = await freePort();
    const dataDir = await mkdtemp(join(tmpdir(), "gh-nodb-"));
    for (const [url, why] of [
      [`postgres://gatehouse:s3cret@127.0.0.1:${deadPort}/gatehouse`, /ECONNREFUSED/],
      ["postgres://postgres:s3cret@127.0.0.1:5432/gatehouse_no_such_database", /does not exist/],
    ] as const) {
      const child = await runEntry("main", [], {
        DATA_DIR: dataDir,
        PORT: String(await freePort()),
        LOG_LEVEL: "warn",
        DATABASE_URL: url,
        REDIS_URL: "",
      });
      const code = await new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
      expect(code, url).toBe(1);
      const lines = child.output().trim().split("\n");
      expect(lines, url).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(`^cannot use the database at ${new URL(url).host}${new URL(url).pathname}: `),
      );
      expect(lines[0]).toMatch(why);
      expect(lines[0]).not.toContain("s3cret");
    }
  }, 60_000);
});
