import type { Db } from "@gatehouse/db";
import type { KeyRing } from "@gatehouse/secrets";
import { rotationGraceSeconds } from "./key-manager.ts";
import type { SigningAlg } from "./key-material.ts";
import { ensureActiveKey, rotateSigningKeys, type Rotation } from "./signing-key-store.ts";

/**
 * Rotates the signing keys of a deployment from outside the servers (the
 * CLI): the next key of the configured algorithm starts signing, the old
 * ones verify until their tokens expire. Running servers follow on their
 * next reload (within a minute); they already publish the new key.
 */
export async function rotateSigningKeysNow(
  db: Db,
  keyRing: KeyRing,
  settings: { signingAlg: SigningAlg; accessTokenTtlSeconds: number },
): Promise<Rotation> {
  await ensureActiveKey(db, keyRing, settings.signingAlg);
  return rotateSigningKeys(db, keyRing, settings.signingAlg, rotationGraceSeconds(settings.accessTokenTtlSeconds));
}
