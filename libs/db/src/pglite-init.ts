import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Creates a new PGlite data directory (initdb) in a short-lived child
 * process. initdb runs a second WebAssembly PostgreSQL whose memory the
 * process that ran it keeps (~90 MB after a first start, and ~500 MB at its
 * peak: docs/performance.md); in a child it is returned when the child exits.
 * A directory that already holds a database is left alone.
 */
export async function initPgliteDir(dir: string): Promise<void> {
  if (existsSync(join(dir, "PG_VERSION"))) return;
  const pglite = pathToFileURL(createRequire(import.meta.url).resolve("@electric-sql/pglite")).href;
  const script = `const { PGlite } = await import(${JSON.stringify(pglite)}); const db = await PGlite.create(process.argv[1]); await db.close();`;
  let stderr = "";
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, ["--liftoff-only", "--input-type=module", "-e", script, dir], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    child.stderr.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    child.once("error", reject);
    child.once("exit", resolve);
  });
  if (code !== 0) throw new Error(`creating the embedded database in ${dir} failed (exit ${code}): ${stderr.trim()}`);
}
