import { createHash } from "node:crypto";
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from "jose";
import { describe, expect, it } from "vitest";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { randomSecret } from "@gatehouse/secrets";
import {
  backends,
  creds,
  failure,
  isActive,
  OTHER,
  refresh,
  SHOP,
  USER_ID,
  useAuthService,
  type AuthHarness,
} from "../../test/harness.ts";

const REDIRECT = "https://shop.example.com/callback";
const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

describe.each(backends)("authorization_code grant on %s", (_name, open) => {
  let h: AuthHarness;
  useAuthService(open, (ctx) => ({ h } = ctx));

  /** A hosted login of USER_ID at SHOP that authenticated a minute ago, then a code for it (what the users service asks). */
  async function codeFor(opts: { scope?: string; nonce?: string; client?: { clientId: string } } = {}) {
    const verifier = randomSecret(32);
    const authTime = Math.floor(Date.now() / 1000) - 60;
    const issued = await h.auth.issueAuthorizationCode({
      userId: USER_ID,
      authTime: timestampFromDate(new Date(authTime * 1000)),
      clientId: (opts.client ?? SHOP).clientId,
      redirectUri: REDIRECT,
      scope: opts.scope ?? "openid profile",
      codeChallenge: s256(verifier),
      codeChallengeMethod: "S256",
      nonce: opts.nonce ?? "",
    });
    return { code: issued.code, expiresIn: issued.expiresIn, verifier, authTime };
  }

  const redeem = (code: string, params: Record<string, string>, client: { clientId: string; secret: string } = SHOP) =>
    h.auth.issueToken({
      client: creds(client),
      grantType: "authorization_code",
      parameters: { code, redirect_uri: REDIRECT, ...params },
    });

  it("trades a code and its verifier for access, refresh and ID tokens; the access token carries the challenge", async () => {
    const c = await codeFor({ nonce: "n-0S6_WzA2Mj" });
    expect(c.expiresIn).toBe(60n);
    const t = await redeem(c.code, { code_verifier: c.verifier });
    expect(t.tokenType).toBe("Bearer");
    expect(t.scope).toBe("openid profile");
    expect(t.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const at = decodeJwt(t.accessToken);
    expect(at).toMatchObject({
      sub: USER_ID,
      client_id: SHOP.clientId,
      scope: "openid profile",
      code_challenge: s256(c.verifier),
    });
    expect(at.sid).toEqual(expect.any(String));
    expect(await isActive(h, t.accessToken)).toBe(true);

    const jwks = createLocalJWKSet(JSON.parse((await h.auth.getJwks({})).jwksJson) as JSONWebKeySet);
    const { payload, protectedHeader } = await jwtVerify(t.idToken, jwks, {
      issuer: h.settings.issuer,
      audience: SHOP.clientId,
      typ: "JWT",
    });
    expect(protectedHeader.kid).toBeTruthy();
    expect(payload).toMatchObject({ sub: USER_ID, nonce: "n-0S6_WzA2Mj", sid: at.sid, auth_time: c.authTime });
    // EdDSA (Ed25519): at_hash is the left half of SHA-512 (OpenID Connect Core 3.1.3.6).
    expect(payload.at_hash).toBe(
      createHash("sha512").update(t.accessToken).digest().subarray(0, 32).toString("base64url"),
    );

    const r = await refresh(h, t.refreshToken);
    expect(decodeJwt(r.accessToken)).toMatchObject({ sid: at.sid, code_challenge: s256(c.verifier) });
    // openid was granted: the refresh renews the ID token (original auth_time, no nonce).
    const renewed = (
      await jwtVerify(r.idToken, jwks, { issuer: h.settings.issuer, audience: SHOP.clientId, typ: "JWT" })
    ).payload;
    expect(renewed).toMatchObject({ sub: USER_ID, sid: at.sid, auth_time: payload.auth_time });
    expect(renewed).not.toHaveProperty("nonce");
  });

  it("gives no ID token without openid; the code opens the only session", async () => {
    const c = await codeFor({ scope: "profile" });
    const t = await redeem(c.code, { code_verifier: c.verifier });
    expect(t.idToken).toBe("");
    expect(t.refreshToken).not.toBe("");
    expect(await isActive(h, t.accessToken)).toBe(true);
    expect((await refresh(h, t.refreshToken)).idToken).toBe("");
  });

  it("requires the user and when they authenticated (not in the future)", async () => {
    const base = {
      clientId: SHOP.clientId,
      redirectUri: REDIRECT,
      scope: "openid",
      codeChallenge: "a".repeat(43),
      codeChallengeMethod: "S256",
      nonce: "",
    };
    const now = timestampFromDate(new Date());
    const noUser = await failure(h.auth.issueAuthorizationCode({ ...base, userId: "", authTime: now }));
    expect(noUser.violations).toContainEqual(expect.objectContaining({ field: "user_id", code: "required" }));
    const noTime = await failure(h.auth.issueAuthorizationCode({ ...base, userId: USER_ID }));
    expect(noTime.violations).toContainEqual(expect.objectContaining({ field: "auth_time", code: "required" }));
    const future = await failure(
      h.auth.issueAuthorizationCode({
        ...base,
        userId: USER_ID,
        authTime: timestampFromDate(new Date(Date.now() + 3_600_000)),
      }),
    );
    expect(future.violations).toContainEqual(expect.objectContaining({ field: "auth_time", code: "invalid_value" }));
    expect((await h.auth.issueAuthorizationCode({ ...base, userId: USER_ID, authTime: now })).code).toMatch(
      /^[A-Za-z0-9_-]{43}$/,
    );
  });

  it("requires an S256 challenge", async () => {
    const base = {
      userId: USER_ID,
      authTime: timestampFromDate(new Date()),
      clientId: SHOP.clientId,
      redirectUri: REDIRECT,
      scope: "openid",
      nonce: "",
    };
    const missing = await failure(
      h.auth.issueAuthorizationCode({ ...base, codeChallenge: "", codeChallengeMethod: "S256" }),
    );
    expect(missing.violations).toContainEqual(expect.objectContaining({ field: "code_challenge", code: "required" }));
    const plain = await failure(
      h.auth.issueAuthorizationCode({ ...base, codeChallenge: "a".repeat(43), codeChallengeMethod: "plain" }),
    );
    expect(plain.violations).toContainEqual(expect.objectContaining({ field: "code_challenge_method" }));
    const noMethod = await failure(
      h.auth.issueAuthorizationCode({ ...base, codeChallenge: "a".repeat(43), codeChallengeMethod: "" }),
    );
    expect(noMethod.reason).toBe("VALIDATION_FAILED");
  });

  it("refuses a replayed code and revokes the tokens issued from it", async () => {
    const c = await codeFor();
    const t = await redeem(c.code, { code_verifier: c.verifier });
    const replay = await failure(redeem(c.code, { code_verifier: c.verifier }));
    expect(replay.reason).toBe("INVALID_GRANT");
    expect(replay.message).toMatch(/already used/);
    expect(await isActive(h, t.accessToken)).toBe(false);
    expect((await failure(refresh(h, t.refreshToken))).reason).toBe("INVALID_GRANT");
  });

  it("lets one of two racing redemptions win, and the loser's replay ends the winner's session", async () => {
    const c = await codeFor();
    const results = await Promise.allSettled([
      redeem(c.code, { code_verifier: c.verifier }),
      redeem(c.code, { code_verifier: c.verifier }),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    expect(won).toHaveLength(1);
    const winner = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof redeem>>>).value;
    expect(await isActive(h, winner.accessToken)).toBe(false);
  });

  it("checks the verifier, the redirect_uri and the client; a failed redemption spends the code", async () => {
    const wrong = await codeFor();
    expect((await failure(redeem(wrong.code, { code_verifier: randomSecret(32) }))).reason).toBe("INVALID_GRANT");
    expect((await failure(redeem(wrong.code, { code_verifier: wrong.verifier }))).reason).toBe("INVALID_GRANT");

    const missing = await codeFor();
    expect((await failure(redeem(missing.code, {}))).reason).toBe("INVALID_GRANT");
    const malformed = await codeFor();
    expect((await failure(redeem(malformed.code, { code_verifier: "short" }))).reason).toBe("INVALID_REQUEST");

    const redirect = await codeFor();
    expect(
      (await failure(redeem(redirect.code, { code_verifier: redirect.verifier, redirect_uri: `${REDIRECT}/` }))).reason,
    ).toBe("INVALID_GRANT");

    const other = await codeFor();
    expect((await failure(redeem(other.code, { code_verifier: other.verifier }, OTHER))).reason).toBe("INVALID_GRANT");
    // Another client's attempt does not spend the code.
    expect((await redeem(other.code, { code_verifier: other.verifier })).accessToken).toBeTruthy();

    expect((await failure(redeem("not-a-code", { code_verifier: other.verifier }))).reason).toBe("INVALID_GRANT");
    const noRedirect = await failure(
      h.auth.issueToken({ client: creds(SHOP), grantType: "authorization_code", parameters: { code: other.code } }),
    );
    expect(noRedirect.reason).toBe("INVALID_REQUEST");
  });

  it("ends the session named by an ID token (RP-initiated logout)", async () => {
    const c = await codeFor();
    const t = await redeem(c.code, { code_verifier: c.verifier });
    expect((await failure(h.auth.endSession({ idTokenHint: t.idToken, clientId: OTHER.clientId }))).reason).toBe(
      "INVALID_REQUEST",
    );
    expect((await failure(h.auth.endSession({ idTokenHint: t.accessToken, clientId: "" }))).reason).toBe(
      "INVALID_REQUEST",
    );
    expect((await failure(h.auth.endSession({ idTokenHint: "garbage", clientId: "" }))).reason).toBe("INVALID_REQUEST");
    expect(decodeProtectedHeader(t.idToken).typ).toBe("JWT");

    const ended = await h.auth.endSession({ idTokenHint: t.idToken, clientId: SHOP.clientId });
    expect(ended).toMatchObject({ clientId: SHOP.clientId, sub: USER_ID, sessionEnded: true });
    expect(await isActive(h, t.accessToken)).toBe(false);
    expect((await failure(refresh(h, t.refreshToken))).reason).toBe("INVALID_GRANT");
  });
});
