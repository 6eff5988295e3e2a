import { randomBytes } from "node:crypto";
import type { JSONWebKeySet, JWK } from "jose";
import { afterAll, beforeAll } from "vitest";
import { createLogger } from "@gatehouse/logging";
import { KeyRing } from "@gatehouse/secrets";
import { useTestSigningKeys } from "../src/keys/key-material.ts";
import { startAuth, type AuthHarness } from "./harness.ts";
import { openStores, type Stores } from "./stores.ts";

// The set-up of the signing-key suites (src/keys/*.test.ts): one deployment's
// SECRET_KEY, the keys generated (not pooled), and the key rows as stored.

interface KeyRow {
  kid: string;
  alg: string;
  public_jwk: JWK;
  private_sealed: string;
  status: string;
}

export const keyRows = async (s: Stores) =>
  (
    await s.db.query<KeyRow>(
      "SELECT kid, alg, public_jwk, private_sealed, status FROM auth.signing_keys ORDER BY created_at",
    )
  ).rows;
export const keyStatuses = async (s: Stores) => Object.fromEntries((await keyRows(s)).map((r) => [r.kid, r.status]));
export const jwksOf = async (h: AuthHarness) => JSON.parse((await h.auth.getJwks({})).jwksJson) as JSONWebKeySet;
export const silentLogger = createLogger("auth-test", "silent");

/**
 * Migrated stores before the suite, and helpers to start replicas on them
 * (`start`, closed after the suite) or on a fresh deployment (`fresh`).
 */
export function useSigningKeysSuite(open: () => Promise<Stores>) {
  let stores: Stores | undefined;
  // One SECRET_KEY per deployment: every replica on `stores` shares it.
  const keyRing = new KeyRing(randomBytes(32));
  const started: AuthHarness[] = [];
  const start = async (...args: Parameters<typeof startAuth>) => {
    const h = await startAuth(...args);
    started.push(h);
    return h;
  };
  /** Runs `test` on stores of its own (a fresh deployment). */
  const fresh = async (test: (s: Stores) => Promise<void>) => {
    const s = await openStores(open);
    try {
      await test(s);
    } finally {
      await s.close();
    }
  };
  beforeAll(async () => {
    // The keys are what is under test: generated, whatever pool a suite run before in this worker used.
    useTestSigningKeys(undefined);
    stores = await openStores(open);
  });
  afterAll(async () => {
    for (const h of started) await h.close();
    await stores?.close();
  });
  return { keyRing, start, fresh, stores: () => stores! };
}
