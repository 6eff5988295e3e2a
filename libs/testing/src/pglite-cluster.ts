import { execFile } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { mkdir, mkdtemp, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { pgliteTemplate, pgliteVersion } from "./pglite-template.ts";

// A PGlite data directory kept in tmpdir per PGlite version and content, and
// copied whole into each new test database, which PGlite then opens as it
// is. A copy costs ~0.1 s of CPU (cp -R); loading the dumped template into
// a new database cost ~1 s more, and migrating it ~0.3 s more each time.

/** What a cluster holds beyond initdb: its `key` names the content (e.g. a hash of the migrations `fill` applies). */
export interface PgliteClusterContent {
  key: string;
  /** Fills `dataDir` (its PGlite files are in dataDir/pglite, as openDb keeps them) and closes it. */
  fill(dataDir: string): Promise<void>;
}

const made = new Map<string, Promise<string>>();

/** The cluster's directory, made by the first process that needs it; others may race, one rename wins. */
function cluster(content: PgliteClusterContent | undefined): Promise<string> {
  const name = `gatehouse-test-pglite-${pgliteVersion}-dir-${content?.key ?? "empty"}`;
  let dir = made.get(name);
  if (!dir) made.set(name, (dir = makeCluster(join(tmpdir(), name), content)));
  return dir;
}

async function makeCluster(dir: string, content: PgliteClusterContent | undefined): Promise<string> {
  if (existsSync(join(dir, "PG_VERSION"))) return dir;
  if (content && !/^[\w-]{1,64}$/.test(content.key)) throw new Error(`bad cluster key ${content.key}`);
  const part = await mkdtemp(`${dir}.part-`);
  try {
    if (content) {
      await copyDir(await cluster(undefined), join(part, "pglite"));
      await content.fill(part);
    } else {
      await (await PGlite.create(join(part, "pglite"), { loadDataDir: await pgliteTemplate() })).close();
    }
    // Renamed whole into place: a copy never starts from half a cluster.
    await rename(join(part, "pglite"), dir).catch((err: NodeJS.ErrnoException) => {
      if (!existsSync(join(dir, "PG_VERSION"))) throw err;
    });
  } finally {
    await rm(part, { recursive: true, force: true });
  }
  return dir;
}

// cp -R copies in native code; node's fs.cp took ~0.5 s of CPU for the ~1000 files.
const copyDir = (from: string, to: string) => promisify(execFile)("cp", ["-R", from, to]);

/**
 * Gives a new data directory (openDb's `dataDir`: the files go to
 * dataDir/pglite) a copy of the empty cluster, or of one with `content`.
 * An existing database is left as it is.
 */
export async function seedPgliteDataDir(dataDir: string, content?: PgliteClusterContent): Promise<void> {
  if (existsSync(join(dataDir, "pglite", "PG_VERSION"))) return;
  await mkdir(dataDir, { recursive: true });
  await copyDir(await cluster(content), join(dataDir, "pglite"));
}

const madeDirs: string[] = [];

/**
 * A new data directory for openDb holding a copy of the empty cluster: the
 * suites' embedded database (on disk, as npm start keeps it), removed when
 * the test process exits.
 */
export async function pgliteDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "gh-pglite-"));
  if (madeDirs.push(dir) === 1)
    process.once("exit", () => madeDirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  await seedPgliteDataDir(dir);
  return dir;
}
