import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JSONWebKeySet, type JWK } from "jose";
import type { Db } from "@gatehouse/db";
import type { KeyRing } from "@gatehouse/secrets";
import { keyStore, type KeyRow } from "./store.ts";

export type SigningAlg = "EdDSA" | "ES256";

export interface SigningKey {
  kid: string;
  alg: SigningAlg;
  key: CryptoKey;
}

export interface KeyManager {
  /** The newest active key of the configured algorithm. */
  signing(): SigningKey;
  /** Public keys of every active key (the JWK Set). */
  jwks(): JSONWebKeySet;
  /** Public key by kid, for verification. */
  publicKey(kid: string): Promise<CryptoKey | undefined>;
  reload(): Promise<void>;
  close(): void;
}

/**
 * Signing keys kept in auth.signing_keys, private halves sealed with
 * SECRET_KEY. The first key is created under an advisory lock so N replicas
 * starting together make one; each replica reloads every `reloadMs` to follow
 * rotation by another.
 */
export async function createKeyManager(deps: { db: Db; keys: KeyRing; alg: SigningAlg; reloadMs?: number }): Promise<KeyManager> {
  const box = deps.keys.box("signing-key");
  let rows: KeyRow[] = [];
  let current: SigningKey | undefined;
  const publicKeys = new Map<string, Promise<CryptoKey>>();

  await deps.db.tx(async (q) => {
    await q.query("SELECT pg_advisory_xact_lock(hashtext('gatehouse:auth:signing-key'))");
    if ((await keyStore.live(q)).some((r) => r.alg === deps.alg)) return;
    const pair = await generateKeyPair(deps.alg, { extractable: true });
    const publicJwk = await exportJWK(pair.publicKey);
    const kid = await calculateJwkThumbprint(publicJwk);
    const privateJwk = await exportJWK(pair.privateKey);
    await keyStore.insert(q, { kid, alg: deps.alg, public_jwk: publicJwk, private_sealed: box.seal(JSON.stringify(privateJwk), kid) });
  });

  async function reload() {
    rows = await keyStore.live(deps.db);
    const newest = rows.find((r) => r.alg === deps.alg);
    if (!newest) throw new Error(`no active ${deps.alg} signing key`);
    if (current?.kid !== newest.kid) {
      const jwk = JSON.parse(box.open(newest.private_sealed, newest.kid)) as JWK;
      current = { kid: newest.kid, alg: newest.alg, key: (await importJWK(jwk, newest.alg)) as CryptoKey };
    }
  }
  await reload();
  const timer = setInterval(() => void reload().catch(() => undefined), deps.reloadMs ?? 60_000);
  timer.unref();

  return {
    signing: () => current!,
    jwks: () => ({ keys: rows.map((r) => ({ ...r.public_jwk, kid: r.kid, alg: r.alg, use: "sig" })) }),
    async publicKey(kid) {
      let key = publicKeys.get(kid);
      if (!key) {
        let row = rows.find((r) => r.kid === kid);
        if (!row) {
          await reload();
          row = rows.find((r) => r.kid === kid);
        }
        if (!row) return undefined;
        key = importJWK(row.public_jwk, row.alg) as Promise<CryptoKey>;
        publicKeys.set(kid, key);
      }
      return key;
    },
    reload,
    close: () => clearInterval(timer),
  };
}
