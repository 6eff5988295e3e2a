import { Code } from "@connectrpc/connect";
import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { ClientAuthMethod } from "@gatehouse/proto";
import { randomSecret } from "@gatehouse/secrets";
import {
  backends,
  creds,
  failure,
  OPERATOR,
  OTHER,
  SHOP,
  sleep,
  startAuth,
  tokenFor,
  useAuthService,
  type AuthHarness,
  type Stores,
} from "../../test/harness.ts";

describe.each(backends)("introspection (RFC 7662) on %s", (_name, open) => {
  let stores: Stores;
  let h: AuthHarness;
  useAuthService(open, (ctx) => ({ stores, h } = ctx));

  const introspect = (token: string, caller: { clientId: string; secret: string } = SHOP) =>
    h.auth.introspectToken({ client: creds(caller), token, tokenTypeHint: "access_token" });

  it("describes an active token of the calling client", async () => {
    const token = await tokenFor(h, SHOP, "apps:read");
    const claims = decodeJwt(token);
    const i = await introspect(token);
    expect(i).toMatchObject({
      active: true,
      scope: "apps:read",
      clientId: SHOP.clientId,
      sub: SHOP.clientId,
      exp: BigInt(claims.exp!),
      iat: BigInt(claims.iat!),
      iss: "http://auth.test",
      aud: ["http://api.test"],
      jti: claims.jti,
      tokenType: "Bearer",
    });
  });

  it("ignores the token_type_hint", async () => {
    const token = await tokenFor(h, SHOP);
    expect((await h.auth.introspectToken({ client: creds(SHOP), token, tokenTypeHint: "refresh_token" })).active).toBe(
      true,
    );
    expect((await h.auth.introspectToken({ client: creds(SHOP), token, tokenTypeHint: "weird" })).active).toBe(true);
  });

  it("authenticates the caller first: invalid_client", async () => {
    const token = await tokenFor(h, SHOP);
    const f = await failure(introspect(token, { clientId: SHOP.clientId, secret: "nope" }));
    expect(f.reason).toBe("INVALID_CLIENT");
    expect(f.code).toBe(Code.Unauthenticated);
    const none = await failure(h.auth.introspectToken({ client: { method: ClientAuthMethod.UNSPECIFIED }, token }));
    expect(none.reason).toBe("INVALID_CLIENT");
  });

  it.each([[""], ["garbage"], ["a.b.c"], ["eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0."], [randomSecret(32)]])(
    "%j is inactive",
    async (token) => {
      expect(await introspect(token)).toMatchObject({ active: false, clientId: "", scope: "", jti: "" });
    },
  );

  it("hides another client's token from an application", async () => {
    const token = await tokenFor(h, OTHER);
    expect((await introspect(token, SHOP)).active).toBe(false);
    expect((await introspect(token, OTHER)).active).toBe(true);
  });

  it("shows any token to an operator client", async () => {
    const token = await tokenFor(h, OTHER);
    const i = await introspect(token, OPERATOR);
    expect(i.active).toBe(true);
    expect(i.clientId).toBe(OTHER.clientId);
  });

  it("a token signed by another key is inactive, even when it names our kid", async () => {
    const ours = decodeProtectedHeader(await tokenFor(h, SHOP));
    const { privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519" });
    const forge = (kid: string) =>
      new SignJWT({ client_id: SHOP.clientId, scope: "apps:read" })
        .setProtectedHeader({ alg: "EdDSA", typ: "at+jwt", kid })
        .setIssuer("http://auth.test")
        .setAudience("http://api.test")
        .setSubject(SHOP.clientId)
        .setIssuedAt()
        .setExpirationTime("1h")
        .setJti(randomSecret(16))
        .sign(privateKey);
    expect((await introspect(await forge(ours.kid!))).active).toBe(false);
    expect((await introspect(await forge("someone-elses-key"))).active).toBe(false);
  });

  it("a token of ours with the wrong typ, issuer or audience is inactive", async () => {
    // Another auth server on the same keys but another issuer/audience: its tokens are not ours.
    const foreign = await startAuth(stores, {
      keyRing: h.keyRing,
      settings: { issuer: "http://elsewhere", audience: "http://api.test" },
    });
    const otherAud = await startAuth(stores, { keyRing: h.keyRing, settings: { audience: "http://other-api" } });
    try {
      expect((await introspect(await tokenFor(foreign, SHOP))).active).toBe(false);
      expect((await introspect(await tokenFor(otherAud, SHOP))).active).toBe(false);
      // And the same token is fine where it was issued.
      const t = await tokenFor(foreign, SHOP);
      expect((await foreign.auth.introspectToken({ client: creds(SHOP), token: t })).active).toBe(true);
    } finally {
      await foreign.close();
      await otherAud.close();
    }
  });

  it("an expired token is inactive", async () => {
    const shortLived = await startAuth(stores, { keyRing: h.keyRing, settings: { accessTokenTtlSeconds: 1 } });
    try {
      const token = await tokenFor(shortLived, SHOP);
      expect((await introspect(token)).active).toBe(true);
      await sleep(1_100);
      expect((await introspect(token)).active).toBe(false);
    } finally {
      await shortLived.close();
    }
  });

  it("a revoked token is inactive", async () => {
    const token = await tokenFor(h, SHOP);
    await h.auth.revokeToken({ client: creds(SHOP), token });
    expect((await introspect(token)).active).toBe(false);
    expect((await introspect(token, OPERATOR)).active).toBe(false);
  });
});
