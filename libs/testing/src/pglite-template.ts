import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PGlite } from "@electric-sql/pglite";

// PGlite's initdb takes seconds of CPU each time; the suites make dozens of
// embedded databases. One empty cluster is made per PGlite version, dumped to
// a file shared by every test process, and each new database loads it
// (openDb's `template`). Only tests use it: production always runs initdb.

// Keyed by the installed PGlite's version: another version may not read this one's files.
const pgliteDir = join(dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite")), "..");
export const pgliteVersion = (JSON.parse(readFileSync(join(pgliteDir, "package.json"), "utf8")) as { version: string })
  .version;
const file = join(tmpdir(), `gatehouse-test-pglite-${pgliteVersion}.tar`);

let cached: Promise<Blob> | undefined;

async function makeTemplate(): Promise<Blob> {
  try {
    return new Blob([await readFile(file)]);
  } catch {
    const pg = await PGlite.create("memory://");
    try {
      const dump = await pg.dumpDataDir("none");
      // Written aside and renamed: a process reading it never sees half a file.
      const part = `${file}.${randomBytes(4).toString("hex")}`;
      await writeFile(part, Buffer.from(await dump.arrayBuffer()));
      await rename(part, file);
      return dump;
    } finally {
      await pg.close();
    }
  }
}

/** An empty PGlite data directory (initdb done) to pass as openDb's `template`. */
export function pgliteTemplate(): Promise<Blob> {
  return (cached ??= makeTemplate());
}
