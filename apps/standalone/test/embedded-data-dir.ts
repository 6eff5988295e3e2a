import { existsSync, readFileSync } from "node:fs";
import { cp, mkdtemp, rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { openDb } from "@gatehouse/db";
import { pgliteTemplate } from "@gatehouse/testing";

// An empty PGlite cluster (initdb done, nothing migrated) kept as a directory
// per PGlite version on this machine. A new DATA_DIR gets a copy of it (a few
// milliseconds); loading the template into each one instead ran PGlite in the
// test process, ~2.5 s of CPU and ~150 MB more resident each time.
const pglitePackage = join(dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite")), "..", "package.json");
const version = (JSON.parse(readFileSync(pglitePackage, "utf8")) as { version: string }).version;
const clusterDir = join(tmpdir(), `gatehouse-test-pglite-${version}-cluster`);

let made: Promise<string> | undefined;

function emptyCluster(): Promise<string> {
  return (made ??= (async () => {
    if (existsSync(join(clusterDir, "PG_VERSION"))) return clusterDir;
    const part = await mkdtemp(`${clusterDir}.part-`);
    try {
      await (await openDb({ dataDir: part, template: await pgliteTemplate() })).close();
      // Renamed whole into place: a copy never starts from half a cluster. Another process may have won the race.
      await rename(join(part, "pglite"), clusterDir).catch((err: NodeJS.ErrnoException) => {
        if (!existsSync(join(clusterDir, "PG_VERSION"))) throw err;
      });
    } finally {
      await rm(part, { recursive: true, force: true });
    }
    return clusterDir;
  })());
}

/**
 * Gives a new embedded DATA_DIR (npm start's, or start:services' DATA_DIR/<service>)
 * the tests' initdb'd PGlite cluster, so that the server or CLI started on it
 * skips initdb (migrations still run at its start). An existing database is left as it is.
 */
export async function seedEmbeddedDataDir(dataDir: string): Promise<void> {
  if (existsSync(join(dataDir, "pglite", "PG_VERSION"))) return;
  await cp(await emptyCluster(), join(dataDir, "pglite"), { recursive: true });
}
