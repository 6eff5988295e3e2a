import { spawn } from "node:child_process";
import { mkdir, rmdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// The spawned servers and CLIs run the bundle `npm start` runs (dist/server,
// scripts/build.mjs), not the TypeScript sources: a process then starts in
// about half the CPU (no type stripping of ~2,000 modules; `npm start` from
// the sources ~9.7 s, from the bundle ~4.6 s) and it is what users run.
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const SERVER_DIST = join(ROOT, "dist", "server");
const LOCK = join(ROOT, "dist", ".test-build.lock");
// A build takes about a second: a lock older than this was left by a process that died while building.
const STALE_LOCK_MS = 60_000;

let built: Promise<void> | undefined;

/**
 * Brings dist/server up to date with the sources, once per test process:
 * scripts/build.mjs rebuilds it when a source changed (~0.5 s) and otherwise
 * only hashes them (~0.2 s). One process at a time: a build replaces
 * dist/server whole, under a server another test process runs from it.
 */
export function serverBuilt(): Promise<void> {
  return (built ??= buildUnderLock());
}

async function buildUnderLock(): Promise<void> {
  await mkdir(join(ROOT, "dist"), { recursive: true });
  for (;;) {
    try {
      await mkdir(LOCK);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const age = await stat(LOCK).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > STALE_LOCK_MS) await rmdir(LOCK).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    const child = spawn(process.execPath, [join(ROOT, "scripts", "build.mjs")], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve, reject) =>
      child.once("error", reject).once("exit", resolve),
    );
    if (code !== 0) throw new Error(`node scripts/build.mjs failed (exit ${code}):\n${stderr}`);
  } finally {
    await rmdir(LOCK).catch(() => undefined);
  }
}
