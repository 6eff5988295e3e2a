import { randomBytes } from "node:crypto";
import { calculateJwkThumbprint, createLocalJWKSet, decodeProtectedHeader, importJWK, jwtVerify, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { KeyRing, randomSecret } from "@gatehouse/secrets";
import { backends, creds, OPERATOR, SHOP, startAuth, tokenFor } from "../../test/harness.ts";
import { jwksOf, keyRows, useSigningKeysSuite } from "../../test/signing-keys.ts";
import { openPrivateJwk } from "./signing-key-store.ts";

describe.each(backends)("signing keys on %s", (_name, open) => {
  const suite = useSigningKeysSuite(open);
  const { keyRing, start, fresh } = suite;

  it("replicas starting together create exactly one active and one next key and verify each other's tokens", () =>
    fresh(async (s) => {
      const dbs = await Promise.all([s.anotherDb(), s.anotherDb(), s.anotherDb()]);
      const [a, b, c] = await Promise.all(dbs.map((db) => start({ db, kv: s.kv }, { keyRing })));
      const keys = await keyRows(s);
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
    const h = await start(suite.stores(), { keyRing });
    const [row] = await keyRows(suite.stores());
    expect(row!.kid).toBe(await calculateJwkThumbprint(row!.public_jwk, "sha256"));
    expect(row!.public_jwk).not.toHaveProperty("d");
    expect(row!.private_sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    const clear = openPrivateJwk(h.keyRing, row!.kid, row!.private_sealed);
    expect(clear.d).toMatch(/^[\w-]{43}$/);
    expect(clear.x).toBe(row!.public_jwk.x);
    expect(JSON.stringify(await keyRows(suite.stores()))).not.toContain(clear.d);
    // Sealed to its row: the kid is the associated data.
    expect(() => openPrivateJwk(h.keyRing, "another-kid", row!.private_sealed)).toThrow();
    // Without the same SECRET_KEY a replica cannot sign with it.
    await expect(startAuth(suite.stores(), { keyRing: new KeyRing(randomBytes(32)) })).rejects.toThrow();
  });

  it("publishes public keys only, with use, alg and kid", async () => {
    const h = await start(suite.stores(), { keyRing });
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
      expect((await keyRows(s)).map((r) => r.alg).sort()).toEqual([alg, alg, "EdDSA", "EdDSA"].sort());
      // Every key is published, so either replica verifies the other's tokens.
      expect((await ed.auth.introspectToken({ client: creds(OPERATOR), token })).active).toBe(true);
      expect(
        (await other.auth.introspectToken({ client: creds(OPERATOR), token: await tokenFor(ed, SHOP) })).active,
      ).toBe(true);
      expect((await other.auth.getServerMetadata({})).signingAlgValuesSupported).toEqual([alg]);
    }),
  );

  it("rejects a JWT signed with our own key whose typ is not at+jwt", async () => {
    const h = await start(suite.stores(), { keyRing });
    const [row] = await keyRows(suite.stores());
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
});
