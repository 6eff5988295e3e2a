import { randomBytes } from "node:crypto";
import { readFile, rename, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateSigningKey, useTestSigningKeys, type GeneratedKey } from "@gatehouse/auth";

// RS256 keys for the in-process test stacks: generating one costs ~70 ms of
// CPU and every stack makes two (active and next) where the keys are not what
// is under test (apps/auth/src/keys/keys.test.ts generates its own). A pool
// is made once per machine in tmpdir and handed out in turn: POOL_SIZE draws
// in a row are distinct, so a stack's keys (and its rotations) never repeat a
// kid; stacks on separate databases may share one.

const POOL_SIZE = 16;
const file = join(tmpdir(), `gatehouse-test-signing-keys-rs256-${POOL_SIZE}.json`);

async function loadPool(): Promise<GeneratedKey[]> {
  try {
    const keys = JSON.parse(await readFile(file, "utf8")) as GeneratedKey[];
    if (keys.length === POOL_SIZE && keys.every((k) => k.alg === "RS256")) return keys;
  } catch {
    // Not made yet (or unreadable): make it.
  }
  const keys = await Promise.all(Array.from({ length: POOL_SIZE }, () => generateSigningKey("RS256")));
  // Written aside and renamed: another process never reads half a file.
  const part = `${file}.${randomBytes(4).toString("hex")}`;
  await writeFile(part, JSON.stringify(keys), { mode: 0o600 });
  await rename(part, file);
  return keys;
}

let installed: Promise<void> | undefined;

/** This process's stacks take their RS256 keys from the pool from now on. */
export function useSigningKeyPool(): Promise<void> {
  return (installed ??= loadPool().then((keys) => {
    let drawn = 0;
    useTestSigningKeys((alg) => (alg === "RS256" ? keys[drawn++ % keys.length] : undefined));
  }));
}
