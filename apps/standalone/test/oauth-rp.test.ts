import * as client from "openid-client";
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmedUser, createOAuthApp, REDIRECT } from "./oauth-flow.ts";
import { hostedLogin, listeningStack, SIGNING_ALGS } from "./rp-helpers.ts";
import type { TestStack } from "./stack-helpers.ts";
import { PASSWORD, type FlowApp, type LoggedUser } from "./user-flows.ts";

// Gatehouse as an off-the-shelf relying party sees it: openid-client v6 over
// real HTTP (PostgreSQL + Redis), from discovery to logout, for each
// SIGNING_ALG, as a confidential server application (client_secret_basic)
// and as a public client (an entry point id, token_endpoint_auth_method
// none). ID token signatures are checked against the JWKS
// (enableNonRepudiationChecks).
describe.each(SIGNING_ALGS)("openid-client as the relying party (SIGNING_ALG=%s)", (alg) => {
  let s: TestStack;
  let base: string;
  let app: FlowApp;
  let user: LoggedUser;
  const execute = [client.allowInsecureRequests, client.enableNonRepudiationChecks];

  beforeAll(async () => {
    ({ s, base } = await listeningStack({ SIGNING_ALG: alg }));
    app = await createOAuthApp(s);
    user = await confirmedUser(s, app);
  });
  afterAll(() => s?.close());

  /** Discovery, authorization with PKCE, the hosted login, the code grant. */
  async function signIn(config: client.Configuration, scope = "openid profile email offline_access") {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
    });
    const callback = await hostedLogin(url, user.email, PASSWORD);
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    return {
      tokens: await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
      }),
      nonce,
    };
  }

  it("confidential: discovers, authorizes with PKCE, exchanges the code, reads UserInfo, refreshes (new ID token) and logs out", async () => {
    const config = await client.discovery(new URL(base), app.id, app.password, client.ClientSecretBasic(app.password), {
      execute,
    });
    const meta = config.serverMetadata();
    expect(meta.issuer).toBe(base);
    expect(meta.id_token_signing_alg_values_supported).toEqual([alg]);

    const { tokens, nonce } = await signIn(config);
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: base, sub: String(user.id), aud: app.id, nonce });
    expect(typeof claims.auth_time).toBe("number");
    const { protectedHeader } = await jwtVerify(tokens.id_token!, createRemoteJWKSet(new URL(meta.jwks_uri!)), {
      issuer: base,
      audience: app.id,
    });
    expect(protectedHeader.alg).toBe(alg);
    expect(decodeProtectedHeader(tokens.access_token).alg).toBe(alg);

    const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info).toMatchObject({ sub: String(user.id), email: user.email, email_verified: true, name: "Ana" });

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    // OpenID Connect Core 12.2, checked by openid-client: same iss, sub, aud and auth_time.
    expect(refreshed.claims()).toMatchObject({ sub: claims.sub, aud: app.id, auth_time: claims.auth_time });
    expect((await client.fetchUserInfo(config, refreshed.access_token, claims.sub)).sub).toBe(String(user.id));

    const logout = client.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: REDIRECT,
      state: "bye",
    });
    const out = await fetch(logout, { redirect: "manual" });
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe(`${REDIRECT}?state=bye`);
    await expect(client.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({
      error: "invalid_grant",
    });
  });

  it("public client (an entry point id, no secret): code + PKCE, UserInfo, refresh, revocation", async () => {
    const config = await client.discovery(new URL(base), app.entrypoint, undefined, client.None(), { execute });
    const { tokens } = await signIn(config);
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ aud: app.entrypoint, sub: String(user.id) });
    expect((await client.fetchUserInfo(config, tokens.access_token, claims.sub)).email).toBe(user.email);
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.claims()?.sub).toBe(claims.sub);
    await client.tokenRevocation(config, refreshed.refresh_token!, { token_type_hint: "refresh_token" });
    await expect(client.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({
      error: "invalid_grant",
    });
    await expect(client.fetchUserInfo(config, refreshed.access_token, claims.sub)).rejects.toThrow();
  });

  it("surfaces an authorization error redirected to the client (state kept)", async () => {
    const config = await client.discovery(new URL(base), app.id, app.password, client.ClientSecretBasic(app.password), {
      execute,
    });
    const state = client.randomState();
    // No PKCE: refused at the authorization endpoint, reported at the redirect URI.
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "openid", state });
    const res = await fetch(url, { redirect: "manual" });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get("location")!);
    expect(back.searchParams.get("error")).toBe("invalid_request");
    await expect(
      client.authorizationCodeGrant(config, back, {
        expectedState: state,
        pkceCodeVerifier: client.randomPKCECodeVerifier(),
      }),
    ).rejects.toMatchObject({
      error: "invalid_request",
    });
  });
});
