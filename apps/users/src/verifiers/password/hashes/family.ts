import type { JsonValue } from "@bufbuild/protobuf";

/**
 * One family of foreign password hashes (an import): how its export form is
 * read into the string kept in users.password_hash, how that string is
 * verified, and how it is written back in an export (the import's form, so
 * that an export imports again). Gatehouse's own argon2id is not a foreign
 * family: credentials/passwords.ts verifies it.
 */
export interface HashFamily {
  name: string;
  /** True when a stored string is this family's. */
  owns(stored: string): boolean;
  /** The stored string for an import's `password` value, or undefined when it is not this family's (or not well formed). */
  read(value: JsonValue, context: ImportContext): string | undefined;
  /** Recomputes the hash of `password` and compares in constant time. */
  verify(stored: string, password: string): Promise<boolean>;
  exported(stored: string): JsonValue;
}

/** Firebase's project parameters (its console's "password hash parameters"), base64 as it shows them. */
export interface FirebaseParams {
  signerKey: string;
  saltSeparator: string;
  rounds: number;
  memCost: number;
}

export interface ImportContext {
  /** `?firebase=` of the import, when given. */
  firebase?: FirebaseParams;
}
