import { decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import { backends, creds, SHOP, tokenFor } from "../../test/harness.ts";
import { jwksOf, keyStatuses, silentLogger as logger, useSigningKeysSuite } from "../../test/signing-keys.ts";
import { createKeyManager } from "./key-manager.ts";
import { rotateSigningKeys } from "./signing-key-store.ts";

describe.each(backends)("signing key rotation on %s", (_name, open) => {
  const { keyRing, start, fresh } = useSigningKeysSuite(open);

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
      expect(await keyStatuses(s)).toMatchObject({
        [oldKid!]: "retired",
        [nextKid!]: "active",
        [rotation.next]: "next",
      });
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
        expect(Object.values(await keyStatuses(s)).filter((st) => st === "active")).toHaveLength(1);
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
