import { spawn } from "node:child_process";
import { mkdtemp, readFile, utimes, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DataDirLockedError, LOCK_FILE, lockDataDir } from "./owner-lock.ts";

const lockModule = fileURLToPath(new URL("./owner-lock.ts", import.meta.url));
const flags = ["--experimental-transform-types", "--disable-warning=ExperimentalWarning"];

/** A child process that tries the lock, holds it `holdMs` when it gets it, and reports. */
function tryLockElsewhere(dir: string, holdMs = 0): Promise<{ code: number | null; out: string; pid: number }> {
  const script = `const { lockDataDir } = await import(${JSON.stringify(lockModule)});
try {
  const release = await lockDataDir(${JSON.stringify(dir)});
  process.stdout.write("locked");
  await new Promise((r) => setTimeout(r, ${holdMs}));
  await release();
} catch (err) {
  process.stdout.write(err.name + ": " + err.message);
  process.exit(3);
}`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...flags, "--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.once("exit", (code) => resolve({ code, out, pid: child.pid! }));
  });
}

/** A child process that tries the lock and, when it gets it, holds it until `release()` closes its stdin. */
function holdUntilTold(dir: string) {
  const script = `const { lockDataDir } = await import(${JSON.stringify(lockModule)});
try {
  const release = await lockDataDir(${JSON.stringify(dir)});
  process.stdout.write("locked");
  await new Promise((r) => process.stdin.on("end", r).resume());
  await release();
} catch (err) {
  process.stdout.write(err.name + ": " + err.message);
  process.exit(3);
}`;
  const child = spawn(process.execPath, [...flags, "--input-type=module", "-e", script], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = "";
  const answered = new Promise<void>((resolve) => {
    child.stdout.on("data", (d) => {
      out += d;
      resolve();
    });
    child.once("exit", () => resolve());
  });
  const done = new Promise<{ code: number | null; out: string }>((resolve) =>
    child.once("exit", (code) => resolve({ code, out })),
  );
  return { answered, done, release: () => child.stdin.end() };
}

const freshDir = async () => join(await mkdtemp(join(tmpdir(), "gh-lock-")), "data");

describe("data directory owner lock", () => {
  it("refuses a second process at once while the owner lives, with the owner in a one-line message", async () => {
    const dir = await freshDir();
    const release = await lockDataDir(dir);
    const started = performance.now();
    const other = await tryLockElsewhere(dir);
    expect(other.code).toBe(3);
    expect(other.out).toMatch(
      new RegExp(`^DataDirLockedError: DATA_DIR ${dir} is in use by another Gatehouse process \\(pid ${process.pid}, `),
    );
    expect(other.out).not.toContain("\n");
    expect(performance.now() - started).toBeLessThan(5_000);
    // The same process may not open it twice either (two PGlite instances corrupt it just the same).
    await expect(lockDataDir(dir)).rejects.toBeInstanceOf(DataDirLockedError);
    await release();
    expect((await tryLockElsewhere(dir)).out).toBe("locked");
  });

  it("takes over the lock of a dead process, of a reused pid and of a silent foreign host", async () => {
    const dir = await freshDir();
    const dead = await tryLockElsewhere(dir, 0);
    expect(dead.out).toBe("locked");
    // A lock left behind (kill -9): the pid no longer runs.
    const lock = (pid: number, extra: object = {}) =>
      JSON.stringify({
        pid,
        host: hostname(),
        started: null,
        command: "main.ts",
        since: new Date().toISOString(),
        ...extra,
      });
    await writeFile(join(dir, LOCK_FILE), lock(dead.pid));
    let release = await lockDataDir(dir);
    expect(JSON.parse(await readFile(join(dir, LOCK_FILE), "utf8")).pid).toBe(process.pid);
    await release();
    // Our own pid, but another start time: an earlier incarnation (container restart, pid reuse).
    await writeFile(join(dir, LOCK_FILE), lock(process.pid, { started: "1" }));
    release = await lockDataDir(dir);
    await release();
    // Another host: refused while its heartbeat is fresh, taken over once it stopped.
    await writeFile(join(dir, LOCK_FILE), lock(1, { host: "elsewhere" }));
    await expect(lockDataDir(dir)).rejects.toThrow(/pid 1 on elsewhere/);
    const old = new Date(Date.now() - 60_000);
    await utimes(join(dir, LOCK_FILE), old, old);
    release = await lockDataDir(dir);
    await release();
  });

  it("of processes racing for an abandoned lock, exactly one wins", async () => {
    const dir = await freshDir();
    const gone = await tryLockElsewhere(dir, 0);
    await writeFile(
      join(dir, LOCK_FILE),
      JSON.stringify({ pid: gone.pid, host: hostname(), started: null, command: "x", since: "" }),
    );
    // The winner holds the lock until every racer has answered: on a loaded machine one child may
    // start seconds after another, and a lock released meanwhile would rightly be taken again.
    const racers = Array.from({ length: 5 }, () => holdUntilTold(dir));
    await Promise.all(racers.map((r) => r.answered));
    for (const r of racers) r.release();
    const results = await Promise.all(racers.map((r) => r.done));
    expect(results.filter((r) => r.out === "locked")).toHaveLength(1);
    expect(results.filter((r) => r.code === 3)).toHaveLength(4);
  });

  it("a directory and its per-service subdirectories exclude each other (npm start vs start:services)", async () => {
    const root = await freshDir();
    const service = join(root, "registry");
    const releaseService = await lockDataDir(service, [root]);
    await expect(lockDataDir(root, [service])).rejects.toThrow(new RegExp(`DATA_DIR ${service} is in use`));
    // The refused one left no lock of its own behind.
    expect(await readFile(join(root, LOCK_FILE), "utf8").catch(() => "none")).toBe("none");
    await releaseService();
    const releaseRoot = await lockDataDir(root, [service]);
    await expect(lockDataDir(service, [root])).rejects.toThrow(new RegExp(`DATA_DIR ${root} is in use`));
    await releaseRoot();
  });
});
