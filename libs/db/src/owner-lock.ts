import { readFileSync } from "node:fs";
import { link, mkdir, readFile, rename, rmdir, stat, unlink, utimes, writeFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { basename, join } from "node:path";

/**
 * One process owns an embedded data directory at a time. PGlite is a
 * single-user PostgreSQL: two processes on one directory each keep their own
 * buffers, transaction counter and control file, so the second one's commits
 * are overwritten or re-used by the first (see docs/operations.md). This lock
 * makes the second process refuse at once instead.
 */
export class DataDirLockedError extends Error {
  override name = "DataDirLockedError";
}

export const LOCK_FILE = "gatehouse.lock";

interface Owner {
  pid: number;
  host: string;
  /** The owner's start time as the kernel counts it (/proc/<pid>/stat), to tell a reused pid. */
  started: string | null;
  command: string;
  since: string;
}

// Another host (or PID namespace) cannot be asked whether the owner lives: its
// lock is kept fresh by a heartbeat and counts as abandoned once that stops.
const HEARTBEAT_MS = 10_000;
const FOREIGN_STALE_MS = 3 * HEARTBEAT_MS;
const TAKEOVER_STALE_MS = 5_000;

/** Fields 3 on of /proc/<pid>/stat (after the parenthesised command name), or null where there is no /proc. */
function procStat(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** Field 22 (starttime). */
const startTimeOf = (pid: number): string | null => procStat(pid)?.[19] ?? null;

function isAlive(owner: Owner, lockAgeMs: number): boolean {
  if (owner.host !== hostname()) return lockAgeMs < FOREIGN_STALE_MS;
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ESRCH") return false;
  }
  const stat = procStat(owner.pid);
  // Killed and not yet reaped (a zombie, e.g. an orphan whose new parent reaps late): it holds nothing.
  if (stat?.[0] === "Z" || stat?.[0] === "X") return false;
  const started = stat?.[19] ?? null;
  // The pid lives but belongs to another process than the one that locked (pid reuse, a container restart).
  return !(owner.started && started && owner.started !== started);
}

async function readOwner(file: string): Promise<{ raw: string; owner: Owner | undefined; ageMs: number } | undefined> {
  try {
    const [raw, info] = await Promise.all([readFile(file, "utf8"), stat(file)]);
    let owner: Owner | undefined;
    try {
      owner = JSON.parse(raw) as Owner;
    } catch {
      owner = undefined; // not ours or damaged: treated as abandoned
    }
    return { raw, owner, ageMs: Date.now() - info.mtimeMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** Replaces a lock judged abandoned, under a short mutex so that two processes never both take it over. */
async function takeOver(file: string, tmp: string, staleRaw: string): Promise<boolean> {
  const mutex = `${file}.takeover`;
  try {
    await mkdir(mutex);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    const age = await stat(mutex).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (age > TAKEOVER_STALE_MS) await rmdir(mutex).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 50));
    return false;
  }
  try {
    const now = await readOwner(file);
    if (now && now.raw !== staleRaw) return false; // someone else took it meanwhile
    await rename(tmp, file);
    return true;
  } finally {
    await rmdir(mutex).catch(() => undefined);
  }
}

function describe(dir: string, o: Owner | undefined): string {
  if (!o) return `DATA_DIR ${dir} is locked by another Gatehouse process; stop it first, or use another DATA_DIR`;
  const where = o.host === hostname() ? `pid ${o.pid}` : `pid ${o.pid} on ${o.host}`;
  return `DATA_DIR ${dir} is in use by another Gatehouse process (${where}, "${o.command}", since ${o.since}); stop it first, or use another DATA_DIR`;
}

/** The live owner of `dir`'s lock, if any. */
async function liveOwner(dir: string): Promise<Owner | undefined> {
  const current = await readOwner(join(dir, LOCK_FILE));
  return current?.owner && isAlive(current.owner, current.ageMs) ? current.owner : undefined;
}

/**
 * Takes `dir/gatehouse.lock` for this process (creating `dir`), or throws
 * DataDirLockedError naming the live owner. A lock left by a dead process is
 * taken over. `exclusiveWith` names directories whose live owners exclude
 * this one too (`npm start` on DATA_DIR and `start:services` on its
 * per-service subdirectories); each side checks the other after taking its
 * own lock, so of two racing at least one sees the other. The returned
 * function releases the lock.
 */
export async function lockDataDir(dir: string, exclusiveWith: string[] = []): Promise<() => Promise<void>> {
  const release = await lockOne(dir);
  for (const other of exclusiveWith) {
    const owner = await liveOwner(other);
    if (owner) {
      await release();
      throw new DataDirLockedError(describe(other, owner));
    }
  }
  return release;
}

async function lockOne(dir: string): Promise<() => Promise<void>> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, LOCK_FILE);
  const mine: Owner = {
    pid: process.pid,
    host: hostname(),
    started: startTimeOf(process.pid),
    command: [basename(process.argv[1] ?? "node"), ...process.argv.slice(2, 4)].join(" "),
    since: new Date().toISOString(),
  };
  const raw = JSON.stringify(mine) + "\n";
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  // Written whole, then linked into place: nobody ever reads a half-written lock.
  await writeFile(tmp, raw, { mode: 0o644 });
  let owned = false;
  try {
    for (let attempt = 0; attempt < 20 && !owned; attempt++) {
      try {
        await link(tmp, file);
        owned = true;
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
      const current = await readOwner(file);
      if (!current) continue;
      if (current.owner && isAlive(current.owner, current.ageMs))
        throw new DataDirLockedError(describe(dir, current.owner));
      owned = await takeOver(file, tmp, current.raw);
    }
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
  if (!owned) throw new DataDirLockedError(describe(dir, undefined));

  const heartbeat = setInterval(() => {
    const now = new Date();
    utimes(file, now, now).catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return async () => {
    clearInterval(heartbeat);
    const current = await readOwner(file);
    if (current?.raw === raw) await unlink(file).catch(() => undefined);
  };
}
