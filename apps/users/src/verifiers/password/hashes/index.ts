import type { JsonValue } from "@bufbuild/protobuf";
import type { KeyRing } from "@gatehouse/secrets";
import type { Passwords } from "../../../credentials/passwords.ts";
import { argon2Family } from "./argon2.ts";
import { bcryptFamily } from "./bcrypt.ts";
import type { HashFamily, ImportContext } from "./family.ts";
import { firebaseFamily } from "./firebase.ts";
import { readKeycloak } from "./keycloak.ts";
import { pbkdf2Family } from "./pbkdf2.ts";
import { scryptFamily } from "./scrypt.ts";

export type { FirebaseParams, ImportContext } from "./family.ts";
export { readFirebaseParams } from "./firebase.ts";

/** The foreign password hashes of imports (contract section 15): read at import, verified at login, written back by the export. */
export interface ForeignHashes {
  /**
   * The string kept in users.password_hash for an import's `password`, or
   * undefined when no family reads it (`unsupported_hash`): a PHC or crypt
   * string (bcrypt, argon2, scrypt, PBKDF2), Keycloak's credential
   * (converted to PHC) or Firebase's scrypt.
   */
  read(value: JsonValue, ctx: ImportContext): string | undefined;
  /** A stored hash in the import's form (an export with hashes). */
  exported(stored: string): JsonValue;
  /**
   * Passwords that also verify imported hashes: a foreign family's hash is
   * checked by its family (its own algorithm's work) and always needs a
   * rehash, so the password verifier replaces it with argon2id at the first
   * right password. Every other string goes to `own`.
   */
  passwords(own: Passwords): Passwords;
}

/** The families; `keys` seals what a family keeps secret at rest (Firebase's signer key). */
export function foreignHashes(keys: KeyRing): ForeignHashes {
  // The families Gatehouse verifies itself (argon2 is verified by credentials/passwords.ts).
  const verified: HashFamily[] = [bcryptFamily, scryptFamily, pbkdf2Family, firebaseFamily(keys.box("import-hashes"))];
  const familyOf = (stored: string) => verified.find((f) => f.owns(stored));
  return {
    read(value, ctx) {
      for (const family of [argon2Family, ...verified]) {
        const stored = family.read(value, ctx);
        if (stored !== undefined) return stored;
      }
      return readKeycloak(value);
    },
    exported: (stored) => familyOf(stored)?.exported(stored) ?? stored,
    passwords: (own) => ({
      hash: (password) => own.hash(password),
      async verify(stored, password) {
        const family = stored ? familyOf(stored) : undefined;
        if (!family) return own.verify(stored, password);
        const ok = await family.verify(stored!, password).catch(() => false); // false: a string its family cannot read
        // A wrong password costs at least an unknown account's (a dummy argon2id verify), however cheap the
        // foreign hash: a fast 403 would tell that the account exists (contract section 5).
        if (!ok) await own.verify(undefined, password);
        return ok;
      },
      needsRehash: (stored) => familyOf(stored) !== undefined || own.needsRehash(stored),
    }),
  };
}
