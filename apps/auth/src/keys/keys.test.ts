import { randomBytes } from "node:crypto";
import { calculateJwkThumbprint, createLocalJWKSet, decodeProtectedHeader, importJWK, jwtVerify, SignJWT, type JSONWebKeySet, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "@gatehouse/logging";
import { KeyRing, randomSecret } from "@gatehouse/secrets";
import { backends, creds, openStores, OPERATOR, SHOP, sleep, startAuth, tokenFor, type AuthHarness, type Stores } from "../../test/harness.ts";
import { createKeyManager } from "./key-manager.ts";
import { ensureActiveKey, openPrivateJwk } from "./signing-key-store.ts";

interface KeyRow {
  kid: string;
  alg: string;
  public_jwk: JWK;
  private_sealed: string;
  status: string;
}
const rows = async (s: Stores) =>
  (await s.db.query<KeyRow>("SELECT kid, alg, public_jwk, private_sealed, status FROM auth.signing_keys ORDER BY created_at")).rows;
const jwksOf = async (h: AuthHarness) => JSON.parse((await h.auth.getJwks({})).jwksJson) as JSONWebKeySet;

describe.each(backends)("signing keys on %s", (_name, open) => {
  let stores: Stores;
  // One SECRET_KEY per deployment: every replica on `stores` shares it.
  const keyRing = new KeyRing(randomBytes(32));
  const started: AuthHarness[] = [];
  const start = async (...args: Parameters<typeof startAuth>) => {
    const h = await startAuth(...args);
    started.push(h);
    return h;
  };
  beforeAll(async () => {
    stores = await openStores(open);
  });
  afterAll(async () => {
    for (const h of started) await h.close();
    await stores.close();
  });

  it("replicas starting together create exactly one key and verify each other's tokens", async () => {
    const fresh = await openStores(open);
    try {
      await replicasAgree(fresh);
    } finally {
      await fresh.close();
    }
  });

  async function replicasAgree(fresh: Stores) {
    const dbs = await Promise.all([fresh.anotherDb(), fresh.anotherDb(), fresh.anotherDb()]);
    const [a, b, c] = await Promise.all(dbs.map((db) => start({ db, kv: fresh.kv }, { keyRing })));
    const keys = await rows(fresh);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ alg: "EdDSA", status: "active" });
    for (const h of [a!, b!, c!]) expect((await jwksOf(h)).keys.map((k) => k.kid)).toEqual([keys[0]!.kid]);

    const fromA = await tokenFor(a!, SHOP);
    const fromB = await tokenFor(b!, SHOP);
    expect(decodeProtectedHeader(fromA).kid).toBe(keys[0]!.kid);
    expect((await b!.auth.introspectToken({ client: creds(SHOP), token: fromA })).active).toBe(true);
    expect((await a!.auth.introspectToken({ client: creds(SHOP), token: fromB })).active).toBe(true);
    // Revocation done through one replica is seen by the others.
    await c!.auth.revokeToken({ client: creds(SHOP), token: fromA });
    expect((await a!.auth.introspectToken({ client: creds(SHOP), token: fromA })).active).toBe(false);
  }

  it("stores the private key sealed, never in clear, under the RFC 7638 kid", async () => {
    const h = await start(stores, { keyRing });
    const [row] = await rows(stores);
    expect(row!.kid).toBe(await calculateJwkThumbprint(row!.public_jwk, "sha256"));
    expect(row!.public_jwk).not.toHaveProperty("d");
    expect(row!.private_sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    const clear = openPrivateJwk(h.keyRing, row!.kid, row!.private_sealed);
    expect(clear.d).toMatch(/^[\w-]{43}$/);
    expect(clear.x).toBe(row!.public_jwk.x);
    expect(row!.private_sealed).not.toContain(clear.d);
    expect(JSON.stringify(await rows(stores))).not.toContain(clear.d);
    // Sealed to its row: the kid is the associated data.
    expect(() => openPrivateJwk(h.keyRing, "another-kid", row!.private_sealed)).toThrow();
    // Without the same SECRET_KEY a replica cannot sign with it.
    await expect(startAuth(stores, { keyRing: new KeyRing(randomBytes(32)) })).rejects.toThrow();
  });

  it("publishes public keys only, with use, alg and kid", async () => {
    const h = await start(stores, { keyRing });
    const { keys } = await jwksOf(h);
    expect(keys.length).toBeGreaterThanOrEqual(1);
    for (const k of keys) {
      expect(k).toMatchObject({ use: "sig", alg: "EdDSA", kty: "OKP", crv: "Ed25519" });
      expect(k.kid).toEqual(expect.any(String));
      expect(k).not.toHaveProperty("d");
    }
    expect(await h.mod.jwks()).toEqual({ keys });
  });

  it("signs with ES256 when configured, beside the EdDSA key", async () => {
    const fresh = await openStores(open);
    try {
      const ed = await start(fresh, { keyRing });
      const es = await start(fresh, { keyRing, settings: { signingAlg: "ES256" } });
      const token = await tokenFor(es, SHOP);
      const header = decodeProtectedHeader(token);
      expect(header).toMatchObject({ alg: "ES256", typ: "at+jwt" });
      const jwks = await jwksOf(es);
      const published = jwks.keys.find((k) => k.kid === header.kid);
      expect(published).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
      expect(published).not.toHaveProperty("d");
      await jwtVerify(token, createLocalJWKSet(jwks), { issuer: es.settings.issuer, audience: es.settings.audience, typ: "at+jwt" });
      expect((await rows(fresh)).map((r) => r.alg).sort()).toEqual(["ES256", "EdDSA"]);
      // Both keys are published, so either replica verifies the other's tokens.
      expect((await ed.auth.introspectToken({ client: creds(OPERATOR), token })).active).toBe(true);
      expect((await es.auth.introspectToken({ client: creds(OPERATOR), token: await tokenFor(ed, SHOP) })).active).toBe(true);
      expect((await es.auth.getServerMetadata({})).signingAlgValuesSupported).toEqual(["ES256"]);
    } finally {
      await fresh.close();
    }
  });

  it("rejects a JWT signed with our own key whose typ is not at+jwt", async () => {
    const h = await start(stores, { keyRing });
    const [row] = await rows(stores);
    const key = await importJWK(openPrivateJwk(h.keyRing, row!.kid, row!.private_sealed), "EdDSA");
    const token = await new SignJWT({ client_id: SHOP.clientId, scope: "" })
      .setProtectedHeader({ alg: "EdDSA", typ: "JWT", kid: row!.kid })
      .setIssuer(h.settings.issuer)
      .setAudience(h.settings.audience)
      .setSubject(SHOP.clientId)
      .setIssuedAt()
      .setExpirationTime("1h")
      .setJti(randomSecret(16))
      .sign(key);
    expect((await h.auth.introspectToken({ client: creds(OPERATOR), token })).active).toBe(false);
  });

  it("follows a rotation done by another replica on its periodic reload", async () => {
    const fresh = await openStores(open);
    const logger = createLogger("auth-test", "silent");
    const manager = await createKeyManager({ db: fresh.db, keyRing, alg: "EdDSA", logger, reloadMs: 50 });
    try {
      const first = manager.signingKey().kid;
      // Another replica retires the key and creates the next one.
      await fresh.db.query("UPDATE auth.signing_keys SET status = 'retired' WHERE kid = $1", [first]);
      const next = await ensureActiveKey(fresh.db, keyRing, "EdDSA");
      expect(next).not.toBe(first);
      await sleep(200);
      expect(manager.signingKey().kid).toBe(next);
      expect(manager.jwks().keys.map((k) => k.kid)).toEqual([next]);
      expect(await manager.verificationKey(first)).toBeUndefined();
    } finally {
      manager.close();
      await fresh.close();
    }
  });
});
