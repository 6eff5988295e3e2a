import { randomBytes } from "node:crypto";
import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  decodeProtectedHeader,
  importJWK,
  jwtVerify,
  SignJWT,
  type JSONWebKeySet,
  type JWK,
} from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "@gatehouse/logging";
import { KeyRing, randomSecret } from "@gatehouse/secrets";
import {
  backends,
  creds,
  openStores,
  OPERATOR,
  SHOP,
  startAuth,
  tokenFor,
  type AuthHarness,
  type Stores,
} from "../../test/harness.ts";
import { useTestSigningKeys } from "./key-material.ts";
import { createKeyManager } from "./key-manager.ts";
import { openPrivateJwk, rotateSigningKeys } from "./signing-key-store.ts";

interface KeyRow {
  kid: string;
  alg: string;
  public_jwk: JWK;
  private_sealed: string;
  status: string;
}
const rows = async (s: Stores) =>
  (
    await s.db.query<KeyRow>(
      "SELECT kid, alg, public_jwk, private_sealed, status FROM auth.signing_keys ORDER BY created_at",
    )
  ).rows;
const statuses = async (s: Stores) => Object.fromEntries((await rows(s)).map((r) => [r.kid, r.status]));
const jwksOf = async (h: AuthHarness) => JSON.parse((await h.auth.getJwks({})).jwksJson) as JSONWebKeySet;
const logger = createLogger("auth-test", "silent");

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
    await stores.close();
  });

  it("replicas starting together create exactly one active and one next key and verify each other's tokens", () =>
    fresh(async (s) => {
      const dbs = await Promise.all([s.anotherDb(), s.anotherDb(), s.anotherDb()]);
      const [a, b, c] = await Promise.all(dbs.map((db) => start({ db, kv: s.kv }, { keyRing })));
      const keys = await rows(s);
      expect(keys.map((k) => `${k.alg}:${k.status}`).sort()).toEqual(["EdDSA:active", "EdDSA:next"]);
      const active = keys.find((k) => k.status === "active")!.kid;
      const next = keys.find((k) => k.status === "next")!.kid;
      // The key in use first, then the next one (published before it signs).
      for (const h of [a!, b!, c!]) expect((await jwksOf(h)).keys.map((k) => k.kid)).toEqual([active, next]);

      const fromA = await tokenFor(a!, SHOP);
      const fromB = await tokenFor(b!, SHOP);
      expect(decodeProtectedHeader(fromA).kid).toBe(active);
      expect((await b!.auth.introspectToken({ client: creds(SHOP), token: fromA })).active).toBe(true);
      expect((await a!.auth.introspectToken({ client: creds(SHOP), token: fromB })).active).toBe(true);
      // Revocation done through one replica is seen by the others.
      await c!.auth.revokeToken({ client: creds(SHOP), token: fromA });
      expect((await a!.auth.introspectToken({ client: creds(SHOP), token: fromA })).active).toBe(false);
    }));

  it("stores the private key sealed, never in clear, under the RFC 7638 kid", async () => {
    const h = await start(stores, { keyRing });
    const [row] = await rows(stores);
    expect(row!.kid).toBe(await calculateJwkThumbprint(row!.public_jwk, "sha256"));
    expect(row!.public_jwk).not.toHaveProperty("d");
    expect(row!.private_sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    const clear = openPrivateJwk(h.keyRing, row!.kid, row!.private_sealed);
    expect(clear.d).toMatch(/^[\w-]{43}$/);
    expect(clear.x).toBe(row!.public_jwk.x);
    expect(JSON.stringify(await rows(stores))).not.toContain(clear.d);
    // Sealed to its row: the kid is the associated data.
    expect(() => openPrivateJwk(h.keyRing, "another-kid", row!.private_sealed)).toThrow();
    // Without the same SECRET_KEY a replica cannot sign with it.
    await expect(startAuth(stores, { keyRing: new KeyRing(randomBytes(32)) })).rejects.toThrow();
  });

  it("publishes public keys only, with use, alg and kid", async () => {
    const h = await start(stores, { keyRing });
    const { keys } = await jwksOf(h);
    expect(keys.length).toBeGreaterThanOrEqual(2);
    for (const k of keys) {
      expect(k).toMatchObject({ use: "sig", alg: "EdDSA", kty: "OKP", crv: "Ed25519" });
      expect(k.kid).toEqual(expect.any(String));
      expect(k).not.toHaveProperty("d");
    }
    expect(await h.mod.jwks()).toEqual({ keys });
  });

  it.each([
    ["RS256", { kty: "RSA", e: "AQAB" }],
    ["ES256", { kty: "EC", crv: "P-256" }],
  ] as const)("signs with %s when configured, beside the EdDSA key, and publishes its public key", (alg, shape) =>
    fresh(async (s) => {
      const ed = await start(s, { keyRing });
      const other = await start(s, { keyRing, settings: { signingAlg: alg } });
      const token = await tokenFor(other, SHOP);
      const header = decodeProtectedHeader(token);
      expect(header).toMatchObject({ alg, typ: "at+jwt" });
      const jwks = await jwksOf(other);
      const published = jwks.keys.find((k) => k.kid === header.kid);
      expect(published).toMatchObject({ ...shape, alg, use: "sig" });
      expect(Object.keys(published!).filter((m) => ["d", "p", "q", "dp", "dq", "qi"].includes(m))).toEqual([]);
      if (alg === "RS256") expect(Buffer.from(published!.n!, "base64url").length).toBe(256);
      await jwtVerify(token, createLocalJWKSet(jwks), {
        issuer: other.settings.issuer,
        audience: other.settings.audience,
        typ: "at+jwt",
        algorithms: [alg],
      });
      expect((await rows(s)).map((r) => r.alg).sort()).toEqual([alg, alg, "EdDSA", "EdDSA"].sort());
      // Every key is published, so either replica verifies the other's tokens.
      expect((await ed.auth.introspectToken({ client: creds(OPERATOR), token })).active).toBe(true);
      expect(
        (await other.auth.introspectToken({ client: creds(OPERATOR), token: await tokenFor(ed, SHOP) })).active,
      ).toBe(true);
      expect((await other.auth.getServerMetadata({})).signingAlgValuesSupported).toEqual([alg]);
    }),
  );

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

  it("rotates: the next key signs, the old kid verifies until its tokens expire, then leaves the JWKS", () =>
    fresh(async (s) => {
      const h = await start(s, { keyRing, settings: { signingAlg: "RS256" } });
      const before = await jwksOf(h);
      const [oldKid, nextKid] = before.keys.map((k) => k.kid);
      const oldToken = await tokenFor(h, SHOP);

      const rotation = await h.mod.rotateSigningKeys();
      expect(rotation).toMatchObject({ active: nextKid, retiring: [oldKid] });
      const after = await jwksOf(h);
      // Current, next, then the retiring key: all published.
      expect(after.keys.map((k) => k.kid)).toEqual([nextKid, rotation.next, oldKid]);
      const newToken = await tokenFor(h, SHOP);
      expect(decodeProtectedHeader(newToken).kid).toBe(nextKid);
      for (const t of [oldToken, newToken])
        expect((await h.auth.introspectToken({ client: creds(SHOP), token: t })).active).toBe(true);
      const grace = (
        await s.db.query<{ s: number }>(
          "SELECT extract(epoch FROM retire_at - now())::int AS s FROM auth.signing_keys WHERE kid = $1",
          [oldKid],
        )
      ).rows[0]!.s;
      expect(grace).toBeGreaterThanOrEqual(h.settings.accessTokenTtlSeconds);

      // Once every token of the old key has expired, it is retired and no longer verifies.
      await s.db.query("UPDATE auth.signing_keys SET retire_at = now() - interval '1 second' WHERE kid = $1", [oldKid]);
      await h.mod.reloadSigningKeys();
      expect((await jwksOf(h)).keys.map((k) => k.kid)).toEqual([nextKid, rotation.next]);
      expect(await statuses(s)).toMatchObject({ [oldKid!]: "retired", [nextKid!]: "active", [rotation.next]: "next" });
      expect((await h.auth.introspectToken({ client: creds(SHOP), token: oldToken })).active).toBe(false);
      expect((await h.auth.introspectToken({ client: creds(SHOP), token: newToken })).active).toBe(true);
    }));

  it("rotates on schedule (one replica does it) and other replicas follow on their periodic reload", () =>
    fresh(async (s) => {
      const a = await createKeyManager({
        db: s.db,
        keyRing,
        alg: "EdDSA",
        logger,
        rotation: { rotateAfterSeconds: 1, graceSeconds: 3600 },
        reloadMs: 100,
      });
      const b = await createKeyManager({
        db: await s.anotherDb(),
        keyRing,
        alg: "EdDSA",
        logger,
        rotation: { rotateAfterSeconds: 0, graceSeconds: 3600 },
        reloadMs: 100,
      });
      try {
        const first = a.signingKey().kid;
        expect(b.signingKey().kid).toBe(first);
        await expect.poll(() => a.signingKey().kid, { timeout: 10_000, interval: 50 }).not.toBe(first);
        const second = a.signingKey().kid;
        await expect
          .poll(() => b.signingKey().kid === second || b.signingKey().kid !== first, { timeout: 10_000, interval: 50 })
          .toBe(true);
        const published = b.jwks().keys.map((k) => k.kid);
        expect(published).toContain(b.signingKey().kid);
        expect(published).toContain(first);
        expect(await b.verificationKey(first)).toBeDefined();
        // Exactly one rotation per period, whoever noticed.
        expect(Object.values(await statuses(s)).filter((st) => st === "active")).toHaveLength(1);
      } finally {
        a.close();
        b.close();
      }
    }));

  it("a changed SIGNING_ALG: the old algorithm's key verifies until a rotation retires it", () =>
    fresh(async (s) => {
      const ed = await createKeyManager({
        db: s.db,
        keyRing,
        alg: "EdDSA",
        logger,
        rotation: { rotateAfterSeconds: 0, graceSeconds: 60 },
      });
      const edKid = ed.signingKey().kid;
      ed.close();
      const rs = await createKeyManager({
        db: s.db,
        keyRing,
        alg: "RS256",
        logger,
        rotation: { rotateAfterSeconds: 0, graceSeconds: 60 },
      });
      try {
        expect(rs.signingKey().alg).toBe("RS256");
        expect(await rs.verificationKey(edKid)).toMatchObject({ alg: "EdDSA" });
        const r = await rotateSigningKeys(s.db, keyRing, "RS256", 60);
        expect(r.retiring).toContain(edKid);
        await rs.reload();
        expect(
          rs
            .jwks()
            .keys.filter((k) => k.alg === "EdDSA")
            .map((k) => k.kid),
        ).toEqual([edKid]);
      } finally {
        rs.close();
      }
    }));
});
