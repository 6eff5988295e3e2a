import type { JWK } from "jose";
import { ConfigError } from "@gatehouse/config";
import type { Db, Queryable } from "@gatehouse/db";
import type { KeyRing } from "@gatehouse/secrets";
import { generateSigningKey, type SigningAlg } from "./key-material.ts";

export type KeyStatus = "next" | "active" | "retiring" | "retired";

export interface StoredKey {
  kid: string;
  alg: SigningAlg;
  publicJwk: JWK;
  privateSealed: string;
  status: KeyStatus;
  createdAt: Date;
  /** When it started signing (active and retiring keys). */
  activatedAt: Date | undefined;
  /** When a retiring key stops being published: every token it signed has expired by then. */
  retireAt: Date | undefined;
}

const SEAL_LABEL = "signing-key";
const LOCK = "gatehouse:auth:signing-keys";

/** The private JWK encrypted under a key of SECRET_KEY; the kid binds the ciphertext to its row. */
export const sealPrivateJwk = (keyRing: KeyRing, kid: string, jwk: JWK) =>
  keyRing.box(SEAL_LABEL).seal(JSON.stringify(jwk), kid);
/** A key that cannot be opened was sealed under another SECRET_KEY: a configuration error, not a crash. */
export function openPrivateJwk(keyRing: KeyRing, kid: string, sealed: string): JWK {
  let opened: string;
  try {
    opened = keyRing.box(SEAL_LABEL).open(sealed, kid);
  } catch {
    throw new ConfigError(
      `SECRET_KEY does not open the signing keys stored in the database (key ${kid}): they were sealed with another key. ` +
        "Start with the key they were sealed with (without SECRET_KEY, the one generated into DATA_DIR/secret.key).",
    );
  }
  return JSON.parse(opened) as JWK;
}

async function insertKey(q: Queryable, keyRing: KeyRing, alg: SigningAlg, status: "next" | "active"): Promise<string> {
  const key = await generateSigningKey(alg);
  await q.query(
    `INSERT INTO auth.signing_keys (kid, alg, public_jwk, private_sealed, status, activated_at)
     VALUES ($1, $2, $3, $4, $5, CASE WHEN $5 = 'active' THEN now() END)`,
    [key.kid, key.alg, JSON.stringify(key.publicJwk), sealPrivateJwk(keyRing, key.kid, key.privateJwk), status],
  );
  return key.kid;
}

const oldest = async (q: Queryable, status: KeyStatus, alg: SigningAlg) =>
  (
    await q.query<{ kid: string }>(
      "SELECT kid FROM auth.signing_keys WHERE status = $1 AND alg = $2 ORDER BY created_at, kid LIMIT 1",
      [status, alg],
    )
  ).rows[0]?.kid;

const newestActive = async (q: Queryable, alg: SigningAlg) =>
  (
    await q.query<{ kid: string }>(
      "SELECT kid FROM auth.signing_keys WHERE status = 'active' AND alg = $1 ORDER BY activated_at DESC NULLS LAST, created_at DESC LIMIT 1",
      [alg],
    )
  ).rows[0]?.kid;

/** Retiring keys whose tokens have all expired are no longer published. */
const retireDue = (q: Queryable) =>
  q.query("UPDATE auth.signing_keys SET status = 'retired' WHERE status = 'retiring' AND retire_at <= now()");

/** The next key of alg becomes active (one is made if none waits). */
async function promoteNext(q: Queryable, keyRing: KeyRing, alg: SigningAlg): Promise<string> {
  const next = await oldest(q, "next", alg);
  if (!next) return insertKey(q, keyRing, alg, "active");
  await q.query("UPDATE auth.signing_keys SET status = 'active', activated_at = now() WHERE kid = $1", [next]);
  return next;
}

/** Runs `work` in a transaction holding the signing keys' advisory lock: N replicas agree on one outcome. */
const locked = <T>(db: Db, work: (q: Queryable) => Promise<T>) =>
  db.tx(async (q) => {
    await q.query("SELECT pg_advisory_xact_lock(hashtext($1))", [LOCK]);
    return work(q);
  });

/**
 * Makes sure alg has an active key and a next key (created if missing), and
 * retires what is due. Returns the kid of the newest active key for alg.
 */
export function ensureActiveKey(db: Db, keyRing: KeyRing, alg: SigningAlg): Promise<string> {
  return locked(db, async (q) => {
    await retireDue(q);
    const active = (await newestActive(q, alg)) ?? (await promoteNext(q, keyRing, alg));
    if (!(await oldest(q, "next", alg))) await insertKey(q, keyRing, alg, "next");
    return active;
  });
}

export interface Rotation {
  /** The key that signs from now on (the former next key). */
  active: string;
  /** The new next key, published ahead of its turn. */
  next: string;
  /** The formerly active keys: published until every token they signed has expired. */
  retiring: string[];
}

/**
 * Rotates: the next key of alg starts signing, every other active key (any
 * algorithm: a changed SIGNING_ALG retires the old one here) keeps verifying
 * for `graceSeconds` (the longest token lifetime plus reload slack) and a new
 * next key is published. Next keys of other algorithms never signed and go at once.
 */
export function rotateSigningKeys(db: Db, keyRing: KeyRing, alg: SigningAlg, graceSeconds: number): Promise<Rotation> {
  return locked(db, (q) => rotate(q, keyRing, alg, graceSeconds));
}

/** Rotates when alg's active key has signed for `rotateAfterSeconds` (checked again under the lock: one replica does it). */
export function rotateIfDue(
  db: Db,
  keyRing: KeyRing,
  alg: SigningAlg,
  opts: { rotateAfterSeconds: number; graceSeconds: number },
): Promise<Rotation | undefined> {
  return locked(db, async (q) => {
    await retireDue(q);
    const fresh = await q.query(
      "SELECT 1 FROM auth.signing_keys WHERE status = 'active' AND alg = $1 AND activated_at > now() - $2 * interval '1 second'",
      [alg, opts.rotateAfterSeconds],
    );
    return fresh.rows.length ? undefined : rotate(q, keyRing, alg, opts.graceSeconds);
  });
}

async function rotate(q: Queryable, keyRing: KeyRing, alg: SigningAlg, graceSeconds: number): Promise<Rotation> {
  await retireDue(q);
  await q.query("UPDATE auth.signing_keys SET status = 'retired' WHERE status = 'next' AND alg <> $1", [alg]);
  const active = await promoteNext(q, keyRing, alg);
  const demoted = await q.query<{ kid: string }>(
    "UPDATE auth.signing_keys SET status = 'retiring', retire_at = now() + $2 * interval '1 second' WHERE status = 'active' AND kid <> $1 RETURNING kid",
    [active, graceSeconds],
  );
  const next = await insertKey(q, keyRing, alg, "next");
  return { active, next, retiring: demoted.rows.map((r) => r.kid).sort() };
}

type KeyRow = {
  kid: string;
  alg: SigningAlg;
  public_jwk: JWK | string;
  private_sealed: string;
  status: KeyStatus;
  created_at: Date;
  activated_at: Date | null;
  retire_at: Date | null;
};

/**
 * Every published key (not retired): the signing keys first (newest first),
 * then the next keys, then the retiring ones, so that a relying party taking
 * the first key of the JWKS takes the one in use.
 */
export async function loadPublishedKeys(db: Queryable): Promise<StoredKey[]> {
  const r = await db.query<KeyRow>(
    `SELECT kid, alg, public_jwk, private_sealed, status, created_at, activated_at, retire_at FROM auth.signing_keys
     WHERE status <> 'retired'
     ORDER BY CASE status WHEN 'active' THEN 0 WHEN 'next' THEN 1 ELSE 2 END, activated_at DESC NULLS LAST, created_at DESC, kid`,
  );
  return r.rows.map((row) => ({
    kid: row.kid,
    alg: row.alg,
    publicJwk: typeof row.public_jwk === "string" ? (JSON.parse(row.public_jwk) as JWK) : row.public_jwk,
    privateSealed: row.private_sealed,
    status: row.status,
    createdAt: new Date(row.created_at),
    activatedAt: row.activated_at ? new Date(row.activated_at) : undefined,
    retireAt: row.retire_at ? new Date(row.retire_at) : undefined,
  }));
}
