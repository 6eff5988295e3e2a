import * as client from "openid-client";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmedUser, createOAuthApp, REDIRECT } from "./oauth-flow.ts";
import { freePort } from "./processes.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { PASSWORD, type FlowApp, type LoggedUser } from "./user-flows.ts";

// Gatehouse as an off-the-shelf relying party sees it: openid-client v6 over
// real HTTP (PostgreSQL + Redis), from discovery to logout. The user's part
// (the hosted login form) is played with fetch, cookie included.

/** GET the hosted login, post the form with its cookie, return the redirect it answers. */
async function hostedLogin(authorizationUrl: URL, email: string, password: string): Promise<URL> {
  const page = await fetch(authorizationUrl, { redirect: "manual" });
  expect(page.status).toBe(200);
  const html = await page.text();
  const token = /name="form_token" value="([^"]+)"/.exec(html)![1]!;
  const cookie = page.headers.get("set-cookie")!.split(";")[0]!;
  const done = await fetch(new URL("/oauth2/authorize", authorizationUrl), {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    body: new URLSearchParams({ form_token: token, email, password }),
  });
  expect(done.status).toBe(303);
  return new URL(done.headers.get("location")!);
}

describe("openid-client as the relying party", () => {
  let s: TestStack;
  let base: string;
  let app: FlowApp;
  let user: LoggedUser;
  let config: client.Configuration;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    s = await startTestStack({ env: { PUBLIC_URL: base, PORT: String(port), HOST: "127.0.0.1" } });
    await s.app.listen({ port, host: "127.0.0.1" });
    app = await createOAuthApp(s);
    user = await confirmedUser(s, app);
    config = await client.discovery(new URL(base), app.id, app.password, client.ClientSecretBasic(app.password), { execute: [client.allowInsecureRequests] });
  });
  afterAll(() => s?.close());

  it("discovers, authorizes with PKCE, exchanges the code, reads UserInfo, refreshes and logs out", async () => {
    const meta = config.serverMetadata();
    expect(meta.issuer).toBe(base);
    expect(meta.code_challenge_methods_supported).toEqual(["S256"]);
    expect(meta.authorization_endpoint).toBe(`${base}/oauth2/authorize`);

    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: "openid profile email offline_access",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
    });
    const callback = await hostedLogin(url, user.email, PASSWORD);
    expect(callback.origin + callback.pathname).toBe(REDIRECT);

    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: base, sub: String(user.id), aud: app.id, nonce });
    expect(typeof claims.auth_time).toBe("number");
    // The ID token is signed with a key of the published JWKS.
    const { protectedHeader } = await jwtVerify(tokens.id_token!, createRemoteJWKSet(new URL(meta.jwks_uri!)), { issuer: base, audience: app.id });
    expect(protectedHeader.kid).toBeTruthy();

    const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info).toMatchObject({ sub: String(user.id), email: user.email, email_verified: true, name: "Ana" });

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await client.fetchUserInfo(config, refreshed.access_token, claims.sub)).sub).toBe(String(user.id));

    const logout = client.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: REDIRECT, state: "bye" });
    const out = await fetch(logout, { redirect: "manual" });
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe(`${REDIRECT}?state=bye`);
    await expect(client.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("surfaces an authorization error redirected to the client (state kept)", async () => {
    const state = client.randomState();
    // No PKCE: refused at the authorization endpoint, reported at the redirect URI.
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "openid", state });
    const res = await fetch(url, { redirect: "manual" });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get("location")!);
    expect(back.searchParams.get("error")).toBe("invalid_request");
    await expect(client.authorizationCodeGrant(config, back, { expectedState: state, pkceCodeVerifier: client.randomPKCECodeVerifier() })).rejects.toMatchObject({
      error: "invalid_request",
    });
  });
});
