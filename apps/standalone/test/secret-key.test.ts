import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort, runEntry, stopChild, waitReady } from "./processes.ts";
import { seedEmbeddedDataDir } from "./stack-helpers.ts";

const exitOf = (child: Awaited<ReturnType<typeof runEntry>>) =>
  new Promise<number | null>((r) =>
    child.exitCode !== null ? r(child.exitCode) : child.once("exit", (code) => r(code)),
  );

// Contract section 1: SECRET_KEY is the key-encryption key of the secrets at
// rest, generated into the data dir when absent. A key that is not the one the
// stored secrets were sealed with is a configuration error, said in one line.
describe("SECRET_KEY", () => {
  it("absent: generated into DATA_DIR/secret.key (0600); another key on that data later: one line, exit 2; the generated key still opens it", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "gh-secretkey-"));
    await seedEmbeddedDataDir(dataDir);
    const port = await freePort();
    const env = {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      DATABASE_URL: "",
      REDIS_URL: "",
      SECRET_KEY: "",
    };
    const first = await runEntry("main", [], env);
    await waitReady(`http://127.0.0.1:${port}/readyz`, first);
    expect(await stopChild(first)).toBe(0);
    const file = join(dataDir, "secret.key");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(Buffer.from((await readFile(file, "utf8")).trim(), "base64url").length).toBeGreaterThanOrEqual(32);

    const wrong = await runEntry("main", [], { ...env, SECRET_KEY: randomBytes(32).toString("base64url") });
    expect(await exitOf(wrong)).toBe(2);
    const lines = wrong.output().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^configuration error: SECRET_KEY .*secret\.key/);

    const again = await runEntry("main", [], env);
    await waitReady(`http://127.0.0.1:${port}/readyz`, again);
    expect(await stopChild(again)).toBe(0);
  }, 120_000);

  it("too short or not hex/base64url: a configuration error of one line, exit 2, for the server and the CLI", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "gh-secretkey-"));
    const env = {
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      LOG_LEVEL: "warn",
      DATABASE_URL: "",
      REDIS_URL: "",
      SECRET_KEY: "change-me",
    };
    for (const [entry, args] of [
      ["main", []],
      ["cli", ["apps", "list"]],
    ] as const) {
      const child = await runEntry(entry, [...args], env);
      expect(await exitOf(child), entry).toBe(2);
      expect(child.output().trim().split("\n"), entry).toEqual([
        expect.stringMatching(/^configuration error: SECRET_KEY must be 32 or more random bytes/),
      ]);
    }
  });
});
