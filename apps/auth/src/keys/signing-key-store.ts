import type { JWK } from "jose";
import type { Db } from "@gatehouse/db";
import type { KeyRing } from "@gatehouse/secrets";
import { generateSigningKey, type SigningAlg } from "./key-material.ts";

export interface StoredKey {
  kid: string;
  alg: SigningAlg;
  publicJwk: JWK;
  privateSealed: string;
  status: "active" | "retired";
  createdAt: Date;
}

const SEAL_LABEL = "signing-key";

/** The private JWK encrypted under a key of SECRET_KEY; the kid binds the ciphertext to its row. */
export const sealPrivateJwk = (keyRing: KeyRing, kid: string, jwk: JWK) => keyRing.box(SEAL_LABEL).seal(JSON.stringify(jwk), kid);
export const openPrivateJwk = (keyRing: KeyRing, kid: string, sealed: string) =>
  JSON.parse(keyRing.box(SEAL_LABEL).open(sealed, kid)) as JWK;

/**
 * Creates the first active key for alg unless one exists. The advisory lock
 * makes N replicas starting together agree on exactly one key.
 * Returns the kid of the newest active key for alg.
 */
export async function ensureActiveKey(db: Db, keyRing: KeyRing, alg: SigningAlg): Promise<string> {
  return db.tx(async (q) => {
    await q.query("SELECT pg_advisory_xact_lock(hashtext($1))", ["gatehouse:auth:signing-keys"]);
    const existing = await q.query<{ kid: string }>(
      "SELECT kid FROM auth.signing_keys WHERE status = 'active' AND alg = $1 ORDER BY created_at DESC LIMIT 1",
      [alg],
    );
    if (existing.rows[0]) return existing.rows[0].kid;
    const key = await generateSigningKey(alg);
    await q.query("INSERT INTO auth.signing_keys (kid, alg, public_jwk, private_sealed, status) VALUES ($1, $2, $3, $4, 'active')", [
      key.kid,
      key.alg,
      JSON.stringify(key.publicJwk),
      sealPrivateJwk(keyRing, key.kid, key.privateJwk),
    ]);
    return key.kid;
  });
}

/** Every key that is not retired, newest first. */
export async function loadPublishedKeys(db: Db): Promise<StoredKey[]> {
  const r = await db.query<{ kid: string; alg: SigningAlg; public_jwk: JWK | string; private_sealed: string; status: "active" | "retired"; created_at: Date }>(
    "SELECT kid, alg, public_jwk, private_sealed, status, created_at FROM auth.signing_keys WHERE status <> 'retired' ORDER BY created_at DESC, kid",
  );
  return r.rows.map((row) => ({
    kid: row.kid,
    alg: row.alg,
    publicJwk: typeof row.public_jwk === "string" ? (JSON.parse(row.public_jwk) as JWK) : row.public_jwk,
    privateSealed: row.private_sealed,
    status: row.status,
    createdAt: new Date(row.created_at),
  }));
}
