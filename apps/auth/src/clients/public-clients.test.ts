import { createHash } from "node:crypto";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ClientAuthMethod } from "@gatehouse/proto";
import { randomSecret } from "@gatehouse/secrets";
import {
  backends,
  creds,
  failure,
  openSession,
  OTHER,
  publicCreds,
  SHOP,
  SHOP_WEB,
  USER_ID,
  useAuthService,
  type AuthHarness,
} from "../../test/harness.ts";

const REDIRECT = "https://shop.example.com/callback";
const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

// Contract section 9: each entry point id is a public client of its
// application (token_endpoint_auth_method none, PKCE, rotating refresh tokens).
describe.each(backends)("public clients on %s", (_name, open) => {
  let h: AuthHarness;
  useAuthService(open, (ctx) => ({ h } = ctx));

  /** A hosted login of USER_ID at SHOP, then a code for SHOP's entry point "web" as a public client (what the users service asks). */
  async function publicCode(scope = "openid profile offline_access") {
    const verifier = randomSecret(32);
    const { code } = await h.auth.issueAuthorizationCode({
      userId: USER_ID,
      authTime: timestampFromDate(new Date()),
      clientId: SHOP_WEB.clientId,
      redirectUri: REDIRECT,
      scope,
      codeChallenge: s256(verifier),
      codeChallengeMethod: "S256",
      nonce: "n-1",
    });
    return { code, verifier };
  }
  const redeem = (code: string, verifier: string, client = publicCreds()) =>
    h.auth.issueToken({
      client,
      grantType: "authorization_code",
      parameters: { code, redirect_uri: REDIRECT, code_verifier: verifier },
    });
  const refreshAs = (refreshToken: string, client = publicCreds()) =>
    h.auth.issueToken({ client, grantType: "refresh_token", parameters: { refresh_token: refreshToken } });

  it("redeems a code with its client_id alone; tokens name the entry point and its application", async () => {
    const c = await publicCode();
    const t = await redeem(c.code, c.verifier);
    expect(decodeJwt(t.accessToken)).toMatchObject({
      client_id: SHOP_WEB.clientId,
      app_id: SHOP.clientId,
      sub: USER_ID,
      code_challenge: s256(c.verifier),
    });
    expect(decodeJwt(t.idToken)).toMatchObject({ aud: SHOP_WEB.clientId, sub: USER_ID, nonce: "n-1" });
    expect(t.refreshToken).toMatch(/^[\w-]{43}$/);
  });

  it("rotates its refresh tokens (a spent one ends the family) and renews the ID token without the nonce", async () => {
    const c = await publicCode();
    const t = await redeem(c.code, c.verifier);
    const first = decodeJwt(t.idToken);
    const r = await refreshAs(t.refreshToken);
    expect(r.refreshToken).not.toBe(t.refreshToken);
    expect(decodeJwt(r.accessToken)).toMatchObject({
      client_id: SHOP_WEB.clientId,
      app_id: SHOP.clientId,
      sid: decodeJwt(t.accessToken).sid,
    });
    const renewed = decodeJwt(r.idToken);
    expect(renewed).toMatchObject({
      iss: first.iss,
      sub: first.sub,
      aud: first.aud,
      auth_time: first.auth_time,
      sid: first.sid,
    });
    expect(renewed).not.toHaveProperty("nonce");
    expect(renewed.at_hash).toBe(
      createHash("sha512").update(r.accessToken).digest().subarray(0, 32).toString("base64url"),
    );
    expect((await failure(refreshAs(t.refreshToken))).reason).toBe("INVALID_GRANT");
    expect((await failure(refreshAs(r.refreshToken))).reason).toBe("INVALID_GRANT");
  });

  it("keeps codes and refresh tokens to their own client: the application is another client", async () => {
    const c = await publicCode();
    expect((await failure(redeem(c.code, c.verifier, creds(SHOP)))).reason).toBe("INVALID_GRANT");
    const t = await redeem(c.code, c.verifier);
    expect((await failure(refreshAs(t.refreshToken, creds(SHOP)))).reason).toBe("INVALID_GRANT");
    // The application's own login cannot be refreshed by its public client either.
    const login = await openSession(h, SHOP);
    expect((await failure(refreshAs(login.refreshToken))).reason).toBe("INVALID_GRANT");
  });

  it("may not use client_credentials, introspect, send a secret, or be an unknown entry point", async () => {
    const cc = await failure(h.auth.issueToken({ client: publicCreds(), grantType: "client_credentials" }));
    expect(cc.reason).toBe("UNAUTHORIZED_CLIENT");
    const c = await publicCode();
    const t = await redeem(c.code, c.verifier);
    expect((await failure(h.auth.introspectToken({ client: publicCreds(), token: t.accessToken }))).reason).toBe(
      "INVALID_CLIENT",
    );
    const withSecret = { method: ClientAuthMethod.NONE, clientId: SHOP_WEB.clientId, clientSecret: "x" };
    expect(
      (
        await failure(
          h.auth.issueToken({
            client: withSecret,
            grantType: "refresh_token",
            parameters: { refresh_token: t.refreshToken },
          }),
        )
      ).reason,
    ).toBe("INVALID_CLIENT");
    expect((await failure(refreshAs(t.refreshToken, publicCreds({ clientId: `${SHOP.clientId}_nope` })))).reason).toBe(
      "INVALID_CLIENT",
    );
    // An application id is not a public client.
    expect((await failure(refreshAs(t.refreshToken, publicCreds({ clientId: SHOP.clientId })))).reason).toBe(
      "INVALID_CLIENT",
    );
  });

  it("lets the application introspect its public client's tokens, not another application", async () => {
    const c = await publicCode();
    const t = await redeem(c.code, c.verifier);
    for (const token of [t.accessToken, t.refreshToken]) {
      const mine = await h.auth.introspectToken({ client: creds(SHOP), token });
      expect(mine).toMatchObject({ active: true, clientId: SHOP_WEB.clientId, sub: USER_ID });
      expect((await h.auth.introspectToken({ client: creds(OTHER), token })).active).toBe(false);
    }
    expect((await h.auth.introspectToken({ client: creds(SHOP), token: t.refreshToken })).tokenType).toBe(
      "refresh_token",
    );
  });

  it("revokes its own refresh token with its client_id alone: the session ends", async () => {
    const c = await publicCode();
    const t = await redeem(c.code, c.verifier);
    await h.auth.revokeToken({ client: publicCreds(), token: t.refreshToken });
    expect((await h.auth.introspectToken({ client: creds(SHOP), token: t.accessToken })).active).toBe(false);
    expect((await failure(refreshAs(t.refreshToken))).reason).toBe("INVALID_GRANT");
  });

  it("accepts either reading of Basic credentials (raw or form-decoded): both are checked", async () => {
    const both = { ...creds(SHOP), clientSecret: "not-it", alternateClientSecret: SHOP.secret };
    expect((await h.auth.issueToken({ client: both, grantType: "client_credentials" })).accessToken).toBeTruthy();
    const neither = { ...creds(SHOP), clientSecret: "not-it", alternateClientSecret: "nor-this" };
    expect((await failure(h.auth.issueToken({ client: neither, grantType: "client_credentials" }))).reason).toBe(
      "INVALID_CLIENT",
    );
  });
});
