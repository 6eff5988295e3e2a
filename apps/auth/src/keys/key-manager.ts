import type { JsonWebKey, KeyObject } from "node:crypto";
import type { JSONWebKeySet } from "jose";
import type { Db } from "@gatehouse/db";
import type { Logger } from "@gatehouse/logging";
import { compactJwsSigner, publicKeyFor, type KeyRing } from "@gatehouse/secrets";
import { publishedJwk, type SigningAlg } from "./key-material.ts";
import {
  ensureActiveKey,
  loadPublishedKeys,
  openPrivateJwk,
  rotateIfDue,
  rotateSigningKeys,
  type Rotation,
  type StoredKey,
} from "./signing-key-store.ts";

export interface SigningKey {
  kid: string;
  alg: SigningAlg;
  /** Signs an access token (typ at+jwt) with this key (node:crypto, on the thread pool). */
  signAccessToken(payload: Record<string, unknown>): Promise<string>;
  /** Signs an OpenID Connect ID token (typ JWT) with this key. */
  signIdToken(payload: Record<string, unknown>): Promise<string>;
}

export interface VerificationKey {
  alg: SigningAlg;
  /** For node:crypto's verify (`verifyJwt` of @gatehouse/secrets). */
  key: KeyObject;
}

export interface KeyManager {
  /** The newest active key of the configured algorithm. */
  signingKey(): SigningKey;
  /** The public key of a published kid (next, active or retiring); an unknown kid triggers a throttled reload. */
  verificationKey(kid: string): Promise<VerificationKey | undefined>;
  /** The public keys of every published key: the one in use first, then the next, then the retiring ones. */
  jwks(): JSONWebKeySet;
  reload(): Promise<void>;
  /** Rotates now (the next key starts signing) and reloads. */
  rotate(): Promise<Rotation>;
  close(): void;
}

export interface KeyRotationSettings {
  /** An active key older than this is rotated by whichever replica notices first; 0 = only on demand. */
  rotateAfterSeconds: number;
  /** How long a rotated-out key keeps verifying: the longest token lifetime plus reload slack. */
  graceSeconds: number;
}

interface KeyState {
  signing: SigningKey;
  verifying: Map<string, VerificationKey>;
  jwks: JSONWebKeySet;
}

const RELOAD_MS = 60_000;
// An unknown kid may be a key another replica just created; look again, but not on every bad token.
const UNKNOWN_KID_RELOAD_MS = 10_000;

/**
 * Loads the signing keys at start (creating the first active and next keys
 * if needed) and every minute after, so that a rotation done by another
 * replica or the CLI is picked up; the same periodic look rotates on
 * schedule and retires keys whose tokens have all expired.
 */
export async function createKeyManager(deps: {
  db: Db;
  keyRing: KeyRing;
  alg: SigningAlg;
  logger: Logger;
  rotation: KeyRotationSettings;
  reloadMs?: number;
}): Promise<KeyManager> {
  const { db, keyRing, alg, rotation } = deps;
  await ensureActiveKey(db, keyRing, alg);
  // null: a published key that cannot verify its alg (never one we generate).
  const publicKeys = new Map<string, KeyObject | null>();
  const signers = new Map<string, SigningKey>();

  const signerOf = (row: StoredKey): SigningKey => {
    let signer = signers.get(row.kid);
    if (!signer) {
      const privateJwk = openPrivateJwk(keyRing, row.kid, row.privateSealed) as never;
      signer = {
        kid: row.kid,
        alg: row.alg,
        signAccessToken: compactJwsSigner({ alg: row.alg, privateJwk, kid: row.kid, typ: "at+jwt" }),
        signIdToken: compactJwsSigner({ alg: row.alg, privateJwk, kid: row.kid, typ: "JWT" }),
      };
      signers.set(row.kid, signer);
    }
    return signer;
  };

  /** Whether the stored keys need the lock: a key to rotate, one to retire, or a missing active or next key. */
  function upkeep(rows: StoredKey[]): "rotate" | "ensure" | undefined {
    const now = Date.now();
    const active = rows.find((r) => r.status === "active" && r.alg === alg);
    if (
      active &&
      rotation.rotateAfterSeconds > 0 &&
      (active.activatedAt?.getTime() ?? 0) + rotation.rotateAfterSeconds * 1000 <= now
    )
      return "rotate";
    if (!active || !rows.some((r) => r.status === "next" && r.alg === alg)) return "ensure";
    if (rows.some((r) => r.status === "retiring" && (r.retireAt?.getTime() ?? 0) <= now)) return "ensure";
    return undefined;
  }

  async function load(): Promise<KeyState> {
    let rows = await loadPublishedKeys(db);
    const todo = upkeep(rows);
    if (todo) {
      const rotated = todo === "rotate" ? await rotateIfDue(db, keyRing, alg, rotation) : undefined;
      if (todo === "ensure") await ensureActiveKey(db, keyRing, alg);
      if (rotated) deps.logger.info(rotated, "signing key rotated on schedule");
      rows = await loadPublishedKeys(db);
    }
    const newest = rows.find((r) => r.status === "active" && r.alg === alg);
    if (!newest) throw new Error(`no active ${alg} signing key`);
    const verifying = new Map<string, VerificationKey>();
    for (const row of rows) {
      let key = publicKeys.get(row.kid);
      if (key === undefined)
        publicKeys.set(row.kid, (key = publicKeyFor(row.publicJwk as JsonWebKey, row.alg) ?? null));
      if (key) verifying.set(row.kid, { alg: row.alg, key });
    }
    // Forget keys that are no longer published (retired ones never come back).
    const published = new Set(rows.map((r) => r.kid));
    for (const kid of [...publicKeys.keys()]) if (!published.has(kid)) publicKeys.delete(kid);
    for (const kid of [...signers.keys()]) if (!published.has(kid)) signers.delete(kid);
    return {
      signing: signerOf(newest),
      verifying,
      jwks: { keys: rows.map((r) => publishedJwk(r.publicJwk, r.kid, r.alg)) },
    };
  }

  let state = await load();
  let lastUnknownReload = 0;
  const reload = async () => {
    state = await load();
  };
  const timer = setInterval(() => {
    reload().catch((err: unknown) => deps.logger.warn({ err }, "signing key reload failed; keeping the loaded keys"));
  }, deps.reloadMs ?? RELOAD_MS);
  timer.unref();

  return {
    signingKey: () => state.signing,
    async verificationKey(kid) {
      const known = state.verifying.get(kid);
      if (known || Date.now() - lastUnknownReload < UNKNOWN_KID_RELOAD_MS) return known;
      lastUnknownReload = Date.now();
      await reload();
      return state.verifying.get(kid);
    },
    jwks: () => state.jwks,
    reload,
    async rotate() {
      const rotated = await rotateSigningKeys(db, keyRing, alg, rotation.graceSeconds);
      await reload();
      return rotated;
    },
    close: () => clearInterval(timer),
  };
}

/** Grace of a rotated-out key: its last tokens (signed up to one reload after the rotation) must expire, plus clock skew. */
export const rotationGraceSeconds = (tokenTtlSeconds: number) => tokenTtlSeconds + RELOAD_MS / 1000 + 240;
