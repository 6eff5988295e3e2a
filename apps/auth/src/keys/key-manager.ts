import type { CryptoKey, JSONWebKeySet } from "jose";
import type { Db } from "@gatehouse/db";
import type { Logger } from "@gatehouse/logging";
import { compactJwsSigner, type KeyRing } from "@gatehouse/secrets";
import { importKey, publishedJwk, type SigningAlg } from "./key-material.ts";
import { ensureActiveKey, loadPublishedKeys, openPrivateJwk, type StoredKey } from "./signing-key-store.ts";

export interface SigningKey {
  kid: string;
  alg: SigningAlg;
  key: CryptoKey;
  /** Signs an access token (typ at+jwt) with this key (node:crypto, on the thread pool). */
  signAccessToken(payload: Record<string, unknown>): Promise<string>;
  /** Signs an OpenID Connect ID token (typ JWT) with this key. */
  signIdToken(payload: Record<string, unknown>): Promise<string>;
}

export interface VerificationKey {
  alg: SigningAlg;
  key: CryptoKey;
}

export interface KeyManager {
  /** The newest active key of the configured algorithm. */
  signingKey(): SigningKey;
  /** The public key of a published (not retired) kid; an unknown kid triggers a throttled reload. */
  verificationKey(kid: string): Promise<VerificationKey | undefined>;
  /** The public keys of every key that is not retired. */
  jwks(): JSONWebKeySet;
  reload(): Promise<void>;
  close(): void;
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
 * Loads the signing keys at start (creating the first one if needed) and
 * every minute after, so a rotation done by another replica is picked up.
 */
export async function createKeyManager(deps: {
  db: Db;
  keyRing: KeyRing;
  alg: SigningAlg;
  logger: Logger;
  reloadMs?: number;
}): Promise<KeyManager> {
  await ensureActiveKey(deps.db, deps.keyRing, deps.alg);
  const imported = new Map<string, CryptoKey>();
  const importOnce = async (cacheKey: string, make: () => Promise<CryptoKey>) => {
    let key = imported.get(cacheKey);
    if (!key) {
      key = await make();
      imported.set(cacheKey, key);
    }
    return key;
  };

  async function load(): Promise<KeyState> {
    const rows = await loadPublishedKeys(deps.db);
    const newest = rows.find((r) => r.status === "active" && r.alg === deps.alg);
    if (!newest) throw new Error(`no active ${deps.alg} signing key`);
    const verifying = new Map<string, VerificationKey>();
    for (const row of rows) {
      verifying.set(row.kid, { alg: row.alg, key: await importOnce(`public:${row.kid}`, () => importKey(row.publicJwk, row.alg)) });
    }
    const signing = {
      kid: newest.kid,
      alg: newest.alg,
      key: await importOnce(`private:${newest.kid}`, () => importPrivate(newest)),
      signAccessToken: signerOnce(newest, "at+jwt"),
      signIdToken: signerOnce(newest, "JWT"),
    };
    return { signing, verifying, jwks: { keys: rows.map((r) => publishedJwk(r.publicJwk, r.kid, r.alg)) } };
  }

  const importPrivate = (row: StoredKey) => importKey(openPrivateJwk(deps.keyRing, row.kid, row.privateSealed), row.alg);
  const signers = new Map<string, SigningKey["signAccessToken"]>();
  const signerOnce = (row: StoredKey, typ: "at+jwt" | "JWT") => {
    let signer = signers.get(`${typ}:${row.kid}`);
    if (!signer) {
      const privateJwk = openPrivateJwk(deps.keyRing, row.kid, row.privateSealed);
      signer = compactJwsSigner({ alg: row.alg, privateJwk: privateJwk as never, kid: row.kid, typ });
      signers.set(`${typ}:${row.kid}`, signer);
    }
    return signer;
  };

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
    close: () => clearInterval(timer),
  };
}
