import { createHash } from "node:crypto";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { openKv } from "@gatehouse/kv";
import { randomSecret } from "@gatehouse/secrets";
import { redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { accessTokenRevocationCheck } from "../index.ts";
import {
  backends,
  creds,
  failure,
  isActive,
  openSession,
  OTHER,
  refresh,
  SHOP,
  startAuth,
  useAuthService,
  type AuthHarness,
  type Stores,
} from "../../test/harness.ts";

// UserSessionsService: a user's live sessions (the per-user index) and "end
// every session" (the index plus the user's "not before" mark).
describe.each(backends)("per-user sessions on %s", (_name, open) => {
  let stores: Stores;
  let h: AuthHarness;
  useAuthService(open, (ctx) => ({ stores, h } = ctx));
  let n = 0;
  const newUser = () => `user-${Date.now()}-${++n}`;

  it("lists a user's live sessions newest first, without ended ones or other users'", async () => {
    const user = newUser();
    const a = await openSession(h, SHOP, "profile", user);
    const b = await openSession(h, OTHER, "profile", user);
    const ended = await openSession(h, SHOP, "profile", user);
    await openSession(h, SHOP, "profile", newUser());
    await h.auth.revokeUserSession({ sessionId: ended.sessionId });
    const { sessions } = await h.userSessions.listUserSessions({ userId: user });
    expect(sessions.map((s) => s.sessionId).sort()).toEqual([a.sessionId, b.sessionId].sort());
    expect(sessions.map((s) => s.clientId).sort()).toEqual([OTHER.clientId, SHOP.clientId].sort());
    expect(sessions[0]!.createTime!.seconds >= sessions[1]!.createTime!.seconds).toBe(true);
    expect(Number(sessions[0]!.expireTime!.seconds)).toBeGreaterThan(Date.now() / 1000 + 6 * 86_400);
    expect((await h.userSessions.listUserSessions({ userId: newUser() })).sessions).toEqual([]);
  });

  it("ends every session of the user: access tokens refused everywhere, refresh tokens spent; other users untouched", async () => {
    const user = newUser();
    const a = await openSession(h, SHOP, "profile offline_access", user);
    const r = await refresh(h, a.refreshToken);
    const b = await openSession(h, OTHER, "profile", user);
    const bystander = await openSession(h, SHOP, "profile", newUser());
    const res = await h.userSessions.revokeUserSessions({ userId: user });
    expect(res.revokedCount).toBe(2);
    for (const t of [a.accessToken, r.accessToken, b.accessToken]) expect(await isActive(h, t)).toBe(false);
    expect((await failure(refresh(h, r.refreshToken))).reason).toBe("INVALID_GRANT");
    expect((await failure(refresh(h, b.refreshToken, OTHER))).reason).toBe("INVALID_GRANT");
    expect((await h.userSessions.listUserSessions({ userId: user })).sessions).toEqual([]);
    expect(await isActive(h, bystander.accessToken)).toBe(true);
    // Other services' verifiers: the session marks and the user's mark.
    const check = accessTokenRevocationCheck(stores.kv, () => Promise.reject(new Error("the store should decide")));
    const claims = decodeJwt(a.accessToken);
    expect(await check({ jti: claims.jti!, sub: claims.sub!, sid: claims.sid as string })).toBe(true);
    expect(await stores.kv.get(`revoked:sub:${user}`)).not.toBeNull();
    // Nothing left to end.
    expect((await h.userSessions.revokeUserSessions({ userId: user })).revokedCount).toBe(0);
  });

  it("a session opened right after (same second) works: the mark refuses only what came before", async () => {
    const user = newUser();
    await openSession(h, SHOP, "profile offline_access", user);
    await h.userSessions.revokeUserSessions({ userId: user });
    const fresh = await openSession(h, SHOP, "profile offline_access", user);
    expect(await isActive(h, fresh.accessToken)).toBe(true);
    const r = await refresh(h, fresh.refreshToken);
    expect(await isActive(h, r.accessToken)).toBe(true);
    expect((await h.userSessions.listUserSessions({ userId: user })).sessions.map((s) => s.sessionId)).toEqual([
      fresh.sessionId,
    ]);
  });

  it("concurrent logins of one user all land in the index", async () => {
    const user = newUser();
    const opened = await Promise.all(Array.from({ length: 12 }, () => openSession(h, SHOP, "profile", user)));
    const { sessions } = await h.userSessions.listUserSessions({ userId: user });
    expect(sessions.map((s) => s.sessionId).sort()).toEqual(opened.map((s) => s.sessionId).sort());
    expect((await h.userSessions.revokeUserSessions({ userId: user })).revokedCount).toBe(12);
  });

  it("a refresh token whose record does not name its user (written before it did) rotates, and is refused once the user's sessions ended", async () => {
    const user = newUser();
    const recordKey = (token: string) => `refresh:${h.keyRing.mac("refresh-token")(token)}`;
    const asBefore = async (token: string) => {
      const { sid, generation, userId } = JSON.parse((await stores.kv.get(recordKey(token)))!) as {
        sid: string;
        generation: number;
        userId: string;
      };
      expect(userId).toBe(user);
      await stores.kv.set(recordKey(token), JSON.stringify({ sid, generation }), 3600);
    };
    const a = await openSession(h, SHOP, "profile offline_access", user);
    const b = await openSession(h, SHOP, "profile offline_access", user);
    await asBefore(a.refreshToken);
    await asBefore(b.refreshToken);
    const r = await refresh(h, a.refreshToken);
    expect(await isActive(h, r.accessToken)).toBe(true);
    expect(JSON.parse((await stores.kv.get(recordKey(r.refreshToken)))!)).toMatchObject({
      userId: user,
      generation: 2,
    });
    // Its session's own mark only, not the user's: the user's "not before" alone must refuse it.
    await stores.kv.del(`session-index:${user}`);
    await h.userSessions.revokeUserSessions({ userId: user });
    expect((await failure(refresh(h, b.refreshToken))).reason).toBe("INVALID_GRANT");
    expect((await failure(refresh(h, r.refreshToken))).reason).toBe("INVALID_GRANT");
  });

  it("the user's mark refuses tokens issued in an earlier second, by sub and iat", async () => {
    const check = accessTokenRevocationCheck(stores.kv, () => Promise.reject(new Error("the store should decide")));
    const user = newUser();
    const nowS = Math.floor(Date.now() / 1000);
    expect(await check({ jti: "jti-x", sub: user, iat: nowS - 10 })).toBe(false);
    // The mark's value is the first second whose tokens are accepted again.
    await stores.kv.set(`revoked:sub:${user}`, String(nowS), 60);
    expect(await check({ jti: "jti-x", sub: user, iat: nowS - 1 })).toBe(true);
    expect(await check({ jti: "jti-x", sub: user, iat: nowS })).toBe(false);
    expect(await check({ jti: "jti-x", sub: newUser(), iat: nowS - 1 })).toBe(false);
    expect(await check({ jti: "jti-x", sub: "" })).toBe(false);
  });

  it("the user's durable mark alone refuses everything from before: the index lost, then a restart on an empty kv", async () => {
    const user = newUser();
    const a = await openSession(h, SHOP, "profile offline_access", user);
    // Redis lost the index (not the session): nothing to count or end one by one.
    await stores.kv.del(`session-index:${user}`);
    expect((await h.userSessions.revokeUserSessions({ userId: user })).revokedCount).toBe(0);
    expect(await isActive(h, a.accessToken)).toBe(false);
    expect((await failure(refresh(h, a.refreshToken))).reason).toBe("INVALID_GRANT");
    // A restart of `npm start`, or of a Redis without persistence: the mark comes back from auth.revocations.
    const kv = stores.db.kind === "pg" ? openKv({ redisUrl: redisTestUrl(), prefix: uniquePrefix() }) : openKv({});
    const restarted = await startAuth({ db: stores.db, kv }, { keyRing: h.keyRing });
    try {
      expect(await kv.get(`revoked:sub:${user}`)).not.toBeNull();
      const claims = decodeJwt(a.accessToken);
      expect(await restarted.mod.isRevoked({ jti: claims.jti!, sub: user, iat: claims.iat! })).toBe(true);
      expect(await isActive(restarted, a.accessToken)).toBe(false);
      expect((await restarted.userSessions.listUserSessions({ userId: user })).sessions).toEqual([]);
      const fresh = await openSession(restarted, SHOP, "profile", user);
      expect(await isActive(restarted, fresh.accessToken)).toBe(true);
    } finally {
      await restarted.close();
      await kv.close();
    }
  });

  it("an authorization code issued before the user's sessions were ended is refused at the token endpoint", async () => {
    const user = newUser();
    const redirectUri = "https://shop.example.com/callback";
    const codeFor = async () => {
      const verifier = randomSecret(32);
      const { code } = await h.auth.issueAuthorizationCode({
        userId: user,
        authTime: timestampFromDate(new Date()),
        clientId: SHOP.clientId,
        redirectUri,
        scope: "openid profile",
        codeChallenge: createHash("sha256").update(verifier).digest("base64url"),
        codeChallengeMethod: "S256",
        nonce: "",
      });
      return () =>
        h.auth.issueToken({
          client: creds(SHOP),
          grantType: "authorization_code",
          parameters: { code, redirect_uri: redirectUri, code_verifier: verifier },
        });
    };
    const before = await codeFor();
    await h.userSessions.revokeUserSessions({ userId: user });
    expect((await failure(before())).reason).toBe("INVALID_GRANT");
    const after = await codeFor();
    expect(await isActive(h, (await after()).accessToken)).toBe(true);
  });

  it("refuses a missing or malformed user id and callers without the internal scope", async () => {
    const f = await failure(h.userSessions.listUserSessions({ userId: "" }));
    expect([f.code, f.reason]).toEqual([Code.InvalidArgument, "VALIDATION_FAILED"]);
    expect((await failure(h.userSessions.revokeUserSessions({ userId: "a b" }))).violations).toMatchObject([
      { field: "user_id", code: "invalid_format" },
    ]);
  });
});
