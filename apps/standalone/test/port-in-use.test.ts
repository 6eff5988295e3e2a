import { mkdtemp } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort, runEntry } from "./processes.ts";
import { seedEmbeddedDataDir } from "./stack-helpers.ts";

// Contract section 1: PORT and HOST are honoured; a PORT another process
// holds stops `npm start` with one line naming it (as `serve` does), not a stack trace.
describe("npm start on a PORT in use", () => {
  it("exits 1 with one line naming HOST:PORT", async () => {
    const port = await freePort();
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(port, "127.0.0.1", () => r()));
    try {
      const dataDir = await mkdtemp(join(tmpdir(), "gh-port-"));
      await seedEmbeddedDataDir(dataDir);
      const child = await runEntry("main", [], { DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn", DATABASE_URL: "", REDIS_URL: "" });
      const code = await new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
      expect(code).toBe(1);
      expect(child.output().trim().split("\n")).toEqual([`cannot listen on 127.0.0.1:${port}: the address is in use (another process holds PORT ${port})`]);
    } finally {
      await new Promise<void>((r) => holder.close(() => r()));
    }
  }, 60_000);
});
