import { Code } from "@connectrpc/connect";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { errorFacts } from "@gatehouse/errors";
import { randomSecret } from "@gatehouse/secrets";
import {
  backends,
  creds,
  failure,
  isActive,
  openSession,
  OTHER,
  refresh,
  SESSION_SCOPE,
  SHOP,
  sleep,
  startAuth,
  USER_ID,
  useAuthService,
  type AuthHarness,
  type Stores,
} from "../../test/harness.ts";

describe.each(backends)("refresh_token grant on %s", (_name, open) => {
  let stores: Stores;
  let h: AuthHarness;
  useAuthService(open, (ctx) => ({ stores, h } = ctx));

  it("rotates: new access and refresh tokens for the same session, each refresh token working once", async () => {
    const s = await openSession(h);
    const r1 = await refresh(h, s.refreshToken);
    expect(r1.tokenType).toBe("Bearer");
    expect(r1.expiresIn).toBe(3600n);
    expect(r1.scope).toBe(SESSION_SCOPE);
    expect(r1.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(r1.refreshToken).not.toBe(s.refreshToken);
    expect(decodeJwt(r1.accessToken)).toMatchObject({
      sub: USER_ID,
      client_id: SHOP.clientId,
      scope: SESSION_SCOPE,
      sid: s.sessionId,
    });
    expect(await isActive(h, r1.accessToken)).toBe(true);
    const r2 = await refresh(h, r1.refreshToken);
    expect(decodeJwt(r2.accessToken).sid).toBe(s.sessionId);
    expect(await isActive(h, s.accessToken)).toBe(true);
  });

  it("a spent refresh token presented again ends the whole family and the session's access tokens", async () => {
    const s = await openSession(h);
    const untouched = await openSession(h);
    const r1 = await refresh(h, s.refreshToken);

    const reuse = await failure(refresh(h, s.refreshToken));
    expect(reuse.reason).toBe("INVALID_GRANT");
    expect(reuse.code).toBe(Code.InvalidArgument);

    expect((await failure(refresh(h, r1.refreshToken))).reason).toBe("INVALID_GRANT");
    expect(await isActive(h, s.accessToken)).toBe(false);
    expect(await isActive(h, r1.accessToken)).toBe(false);
    expect(await isActive(h, r1.refreshToken)).toBe(false);
    const { jti, sub } = decodeJwt(r1.accessToken);
    expect(await h.mod.isRevoked({ jti: jti!, sub: sub!, sid: s.sessionId })).toBe(true);
    expect(await h.mod.isRevoked({ jti: jti!, sub: sub! })).toBe(false);
    expect(await stores.kv.get(`revoked:sid:${s.sessionId}`)).not.toBeNull();

    // Another session of the same user goes on.
    expect(await isActive(h, untouched.accessToken)).toBe(true);
    expect((await refresh(h, untouched.refreshToken)).refreshToken).toBeTruthy();
  });

  it("16 parallel uses of one refresh token: exactly one succeeds, 15 invalid_grant, and the family is ended", async () => {
    const s = await openSession(h);
    const results = await Promise.allSettled(Array.from({ length: 16 }, () => refresh(h, s.refreshToken)));
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.flatMap((r) => (r.status === "rejected" ? [errorFacts(r.reason)] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(15);
    for (const f of lost) {
      expect(f.reason).toBe("INVALID_GRANT");
      expect(f.code).toBe(Code.InvalidArgument);
    }
    // Concurrent presentation counts as reuse: the winner's tokens die with the family.
    const winner = won[0]!.value;
    expect((await failure(refresh(h, winner.refreshToken))).reason).toBe("INVALID_GRANT");
    expect(await isActive(h, winner.accessToken)).toBe(false);
  });

  it("another client's refresh token: invalid_grant, and the owner's family is left alone", async () => {
    const s = await openSession(h, SHOP);
    const f = await failure(refresh(h, s.refreshToken, OTHER));
    expect(f.reason).toBe("INVALID_GRANT");
    expect(f.message).toContain("another client");
    expect(await isActive(h, s.accessToken)).toBe(true);
    expect((await refresh(h, s.refreshToken, SHOP)).scope).toBe(SESSION_SCOPE);
  });

  it("scope may narrow the new access token only; the session keeps its scope", async () => {
    const s = await openSession(h);
    const narrow = await refresh(h, s.refreshToken, SHOP, "profile");
    expect(narrow.scope).toBe("profile");
    expect(decodeJwt(narrow.accessToken).scope).toBe("profile");
    const again = await refresh(h, narrow.refreshToken);
    expect(again.scope).toBe(SESSION_SCOPE);

    // Widening or a malformed scope: invalid_scope, and the token is not spent.
    for (const scope of ["profile admin", "profile  offline_access"]) {
      const f = await failure(refresh(h, again.refreshToken, SHOP, scope));
      expect(f.reason).toBe("INVALID_SCOPE");
      expect(f.code).toBe(Code.InvalidArgument);
    }
    expect((await refresh(h, again.refreshToken, SHOP, "offline_access")).scope).toBe("offline_access");
  });

  it("refuses a missing, unknown or empty refresh token and wrong client credentials", async () => {
    const missing = await failure(h.auth.issueToken({ client: creds(SHOP), grantType: "refresh_token" }));
    expect(missing.reason).toBe("INVALID_REQUEST");
    expect(missing.message).toContain("refresh_token");
    expect((await failure(refresh(h, ""))).reason).toBe("INVALID_REQUEST");
    expect((await failure(refresh(h, randomSecret(32)))).reason).toBe("INVALID_GRANT");
    const s = await openSession(h);
    expect((await failure(refresh(h, s.refreshToken, { clientId: SHOP.clientId, secret: "nope" }))).reason).toBe(
      "INVALID_CLIENT",
    );
    // An access token is not a refresh token.
    expect((await failure(refresh(h, s.accessToken))).reason).toBe("INVALID_GRANT");
    expect((await refresh(h, s.refreshToken)).refreshToken).toBeTruthy();
  });

  it("enforces the absolute lifetime, however often the session is refreshed", async () => {
    const short = await startAuth(stores, {
      keyRing: h.keyRing,
      settings: { refreshTokenTtlSeconds: 2, refreshIdleTtlSeconds: 60 },
    });
    try {
      const s = await openSession(short);
      await sleep(1_100);
      const r1 = await refresh(short, s.refreshToken);
      await sleep(1_100);
      const f = await failure(refresh(short, r1.refreshToken));
      expect(f.reason).toBe("INVALID_GRANT");
      expect(await isActive(short, r1.refreshToken)).toBe(false);
    } finally {
      await short.close();
    }
  });

  it("enforces the idle lifetime: each refresh restarts it, a token left unused longer expires", async () => {
    const idle = await startAuth(stores, {
      keyRing: h.keyRing,
      settings: { refreshTokenTtlSeconds: 60, refreshIdleTtlSeconds: 1 },
    });
    try {
      const s = await openSession(idle);
      await sleep(600);
      const r1 = await refresh(idle, s.refreshToken);
      await sleep(600);
      const r2 = await refresh(idle, r1.refreshToken);
      expect(await isActive(idle, r2.refreshToken)).toBe(true);
      await sleep(1_100);
      expect(await isActive(idle, r2.refreshToken)).toBe(false);
      const f = await failure(refresh(idle, r2.refreshToken));
      expect(f.reason).toBe("INVALID_GRANT");
    } finally {
      await idle.close();
    }
  });
});
