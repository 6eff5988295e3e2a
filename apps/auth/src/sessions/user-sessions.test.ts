import { Code } from "@connectrpc/connect";
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet } from "jose";
import { describe, expect, it } from "vitest";
import { accessTokenRevocationCheck } from "../index.ts";
import {
  backends,
  creds,
  failure,
  isActive,
  openSession,
  OPERATOR,
  OTHER,
  refresh,
  SESSION_SCOPE,
  SHOP,
  USER_ID,
  useAuthService,
  type AuthHarness,
  type Stores,
} from "../../test/harness.ts";

describe.each(backends)("user sessions on %s", (_name, open) => {
  let stores: Stores;
  let h: AuthHarness;
  useAuthService(open, (ctx) => ({ stores, h } = ctx));

  const introspect = (token: string, caller: { clientId: string; secret: string } = SHOP) =>
    h.auth.introspectToken({ client: creds(caller), token, tokenTypeHint: "refresh_token" });

  describe("IssueUserSession", () => {
    it("issues an RFC 9068 access token for the user with the session's sid, and an opaque refresh token", async () => {
      const before = Math.floor(Date.now() / 1000);
      const s = await openSession(h);
      expect(s.expiresIn).toBe(3600n);
      expect(s.scope).toBe(SESSION_SCOPE);
      expect(s.sessionId).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(s.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const jwks = JSON.parse((await h.auth.getJwks({})).jwksJson) as JSONWebKeySet;
      const { payload } = await jwtVerify(s.accessToken, createLocalJWKSet(jwks), {
        issuer: "http://auth.test",
        audience: "http://api.test",
        typ: "at+jwt",
      });
      expect(payload).toMatchObject({ sub: USER_ID, client_id: SHOP.clientId, scope: SESSION_SCOPE, sid: s.sessionId });
      expect(payload.exp).toBe(payload.iat! + 3600);
      expect(payload.iat).toBeGreaterThanOrEqual(before);
      expect((await openSession(h)).sessionId).not.toBe(s.sessionId);
    });

    it("stores the refresh token only as a keyed hash", async () => {
      const s = await openSession(h);
      expect(await stores.kv.get(`refresh:${s.refreshToken}`)).toBeNull();
      const stored = await stores.kv.get(`refresh:${h.keyRing.mac("refresh-token")(s.refreshToken)}`);
      expect(JSON.parse(stored!)).toEqual({ sid: s.sessionId, generation: 1, userId: USER_ID });
    });

    it("refuses a missing user or client and a malformed scope: validation_failed naming each field", async () => {
      const f = await failure(h.auth.issueUserSession({ userId: "", clientId: "", scope: "a  b" }));
      expect(f.reason).toBe("VALIDATION_FAILED");
      expect(f.code).toBe(Code.InvalidArgument);
      expect(f.violations.map((v) => [v.field, v.code])).toEqual([
        ["user_id", "required"],
        ["client_id", "required"],
        ["scope", "invalid_format"],
      ]);
      const long = await failure(
        h.auth.issueUserSession({ userId: "u".repeat(257), clientId: SHOP.clientId, scope: "profile" }),
      );
      expect(long.violations).toMatchObject([{ field: "user_id", code: "too_long" }]);
    });
  });

  describe("RevokeUserSession", () => {
    it("ends the session: its access tokens introspect inactive and its refresh tokens fail", async () => {
      const s = await openSession(h);
      const r1 = await refresh(h, s.refreshToken);
      const other = await openSession(h);
      await h.auth.revokeUserSession({ sessionId: s.sessionId });
      expect(await isActive(h, s.accessToken)).toBe(false);
      expect(await isActive(h, r1.accessToken)).toBe(false);
      expect((await failure(refresh(h, r1.refreshToken))).reason).toBe("INVALID_GRANT");
      expect(await isActive(h, other.accessToken)).toBe(true);
      // What other services' verifiers run against the same store (the store can tell: no fallback needed).
      const check = accessTokenRevocationCheck(stores.kv, () => Promise.reject(new Error("the store should decide")));
      expect(await check({ jti: decodeJwt(r1.accessToken).jti!, sub: "u", sid: s.sessionId })).toBe(true);
      expect(await check({ jti: decodeJwt(other.accessToken).jti!, sub: "u", sid: other.sessionId })).toBe(false);
      // Ending it again is fine.
      await h.auth.revokeUserSession({ sessionId: s.sessionId });
    });

    it("an unknown session: session_not_found; no session id: validation_failed", async () => {
      const f = await failure(h.auth.revokeUserSession({ sessionId: "no-such-session" }));
      expect(f.reason).toBe("SESSION_NOT_FOUND");
      expect(f.code).toBe(Code.NotFound);
      expect((await failure(h.auth.revokeUserSession({ sessionId: "" }))).reason).toBe("VALIDATION_FAILED");
    });
  });

  describe("revocation (RFC 7009)", () => {
    it("a refresh token ends its whole family", async () => {
      const s = await openSession(h);
      const r1 = await refresh(h, s.refreshToken);
      await h.auth.revokeToken({ client: creds(SHOP), token: r1.refreshToken, tokenTypeHint: "refresh_token" });
      expect(await isActive(h, r1.accessToken)).toBe(false);
      expect((await failure(refresh(h, r1.refreshToken))).reason).toBe("INVALID_GRANT");
    });

    it("another client may not revoke it: unauthorized_client, and the session goes on", async () => {
      const s = await openSession(h);
      const f = await failure(h.auth.revokeToken({ client: creds(OTHER), token: s.refreshToken }));
      expect(f.reason).toBe("UNAUTHORIZED_CLIENT");
      expect(await isActive(h, s.accessToken)).toBe(true);
      expect((await refresh(h, s.refreshToken)).refreshToken).toBeTruthy();
    });

    it("an access token of a session is revoked alone", async () => {
      const s = await openSession(h);
      await h.auth.revokeToken({ client: creds(SHOP), token: s.accessToken });
      expect(await isActive(h, s.accessToken)).toBe(false);
      const r1 = await refresh(h, s.refreshToken);
      expect(await isActive(h, r1.accessToken)).toBe(true);
    });
  });

  describe("introspection (RFC 7662) of refresh tokens", () => {
    it("describes a live refresh token of the caller", async () => {
      const s = await openSession(h);
      const now = Math.floor(Date.now() / 1000);
      const i = await introspect(s.refreshToken);
      expect(i).toMatchObject({
        active: true,
        clientId: SHOP.clientId,
        sub: USER_ID,
        scope: SESSION_SCOPE,
        iss: "http://auth.test",
        aud: ["http://auth.test"],
        tokenType: "refresh_token",
        jti: "",
      });
      // The idle deadline (7 days by default) comes before the absolute one (30 days).
      expect(Number(i.exp)).toBeGreaterThanOrEqual(now + 7 * 86_400 - 1);
      expect(Number(i.exp)).toBeLessThanOrEqual(now + 7 * 86_400 + 1);
      expect(Number(i.iat)).toBeGreaterThanOrEqual(now - 1);
    });

    it("is inactive for another application, visible to an operator", async () => {
      const s = await openSession(h);
      expect((await introspect(s.refreshToken, OTHER)).active).toBe(false);
      expect((await introspect(s.refreshToken, OPERATOR)).active).toBe(true);
    });

    it("a spent refresh token is inactive, and asking does not end the family", async () => {
      const s = await openSession(h);
      const r1 = await refresh(h, s.refreshToken);
      expect((await introspect(s.refreshToken)).active).toBe(false);
      expect((await introspect(r1.refreshToken)).active).toBe(true);
      expect((await refresh(h, r1.refreshToken)).refreshToken).toBeTruthy();
    });
  });
});
