import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmedUser, createOAuthApp, LOOPBACK, REDIRECT } from "./oauth-flow.ts";
import { hostedLogin, listeningStack, SIGNING_ALGS } from "./rp-helpers.ts";
import type { TestStack } from "./stack-helpers.ts";
import { PASSWORD, type FlowApp, type LoggedUser } from "./user-flows.ts";

// oauth4webapi (strict by design: it refuses an ID token whose alg is not in
// id_token_signing_alg_values_supported, checks nonce, auth_time and the
// refresh rules) as a public client (a SPA or native app: an entry point id,
// no secret) and as the application's resource server (RFC 9068 access
// token validation, introspection), for each SIGNING_ALG.
const insecure = { [oauth.allowInsecureRequests]: true } as const;
// A native app's private-use URI scheme redirect (RFC 8252 section 7.1).
const NATIVE_SCHEME = "com.example.shop:/oauth2redirect";

describe.each(SIGNING_ALGS)("oauth4webapi as a public client: SPA and native app (SIGNING_ALG=%s)", (alg) => {
  let s: TestStack;
  let base: string;
  let app: FlowApp;
  let user: LoggedUser;
  let as: oauth.AuthorizationServer;
  let spa: oauth.Client;

  beforeAll(async () => {
    ({ s, base } = await listeningStack({ SIGNING_ALG: alg }));
    app = await createOAuthApp(s, [REDIRECT, LOOPBACK, NATIVE_SCHEME]);
    user = await confirmedUser(s, app);
    const issuer = new URL(base);
    as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...insecure, algorithm: "oidc" }),
    );
    spa = { client_id: app.entrypoint, token_endpoint_auth_method: "none" };
  });
  afterAll(() => s?.close());

  /** Authorization request with PKCE, nonce and max_age, the hosted login, the code grant. */
  async function codeFlow(redirectUri = REDIRECT) {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: spa.client_id,
      redirect_uri: redirectUri,
      response_type: "code",
      scope: "openid profile email offline_access",
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
      max_age: "300",
      login_hint: user.email,
    }).toString();
    const callback = await hostedLogin(url, user.email, PASSWORD);
    const params = oauth.validateAuthResponse(as, spa, callback, state);
    expect(callback.href.startsWith(`${redirectUri}?`)).toBe(true);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      spa,
      oauth.None(),
      params,
      redirectUri,
      verifier,
      insecure,
    );
    // max_age requires auth_time, which oauth4webapi checks against the request's max_age.
    const result = await oauth.processAuthorizationCodeResponse(as, spa, response, {
      expectedNonce: nonce,
      requireIdToken: true,
      maxAge: 300,
    });
    return { result, response };
  }

  it("code + PKCE, UserInfo, refresh with a new ID token, revocation", async () => {
    expect(as.token_endpoint_auth_methods_supported).toContain("none");
    expect(as.id_token_signing_alg_values_supported).toEqual([alg]);
    const { result } = await codeFlow();
    const claims = oauth.getValidatedIdTokenClaims(result)!;
    expect(claims).toMatchObject({ iss: base, aud: app.entrypoint, sub: String(user.id) });

    const info = await oauth.processUserInfoResponse(
      as,
      spa,
      claims.sub,
      await oauth.userInfoRequest(as, spa, result.access_token, insecure),
    );
    expect(info).toMatchObject({ sub: claims.sub, email: user.email, email_verified: true });

    const refreshResponse = await oauth.refreshTokenGrantRequest(
      as,
      spa,
      oauth.None(),
      result.refresh_token!,
      insecure,
    );
    const refreshed = await oauth.processRefreshTokenResponse(as, spa, refreshResponse);
    const renewed = oauth.getValidatedIdTokenClaims(refreshed)!;
    expect(renewed).toMatchObject({ sub: claims.sub, aud: app.entrypoint, auth_time: claims.auth_time });
    expect(refreshed.refresh_token).not.toBe(result.refresh_token);

    const revoke = await oauth.revocationRequest(as, spa, oauth.None(), refreshed.refresh_token!, {
      ...insecure,
      additionalParameters: { token_type_hint: "refresh_token" },
    });
    await expect(oauth.processRevocationResponse(revoke)).resolves.toBeUndefined();
    const dead = await oauth.refreshTokenGrantRequest(as, spa, oauth.None(), refreshed.refresh_token!, insecure);
    await expect(oauth.processRefreshTokenResponse(as, spa, dead)).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it.each([
    ["a loopback redirect on the app's ephemeral port (RFC 8252 section 7.3)", "http://127.0.0.1:53682/callback"],
    ["a private-use URI scheme redirect (RFC 8252 section 7.1)", NATIVE_SCHEME],
  ])("native app: %s", async (_name, redirectUri) => {
    const { result } = await codeFlow(redirectUri);
    expect(oauth.getValidatedIdTokenClaims(result)).toMatchObject({ aud: app.entrypoint, sub: String(user.id) });
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      spa,
      await oauth.refreshTokenGrantRequest(as, spa, oauth.None(), result.refresh_token!, insecure),
    );
    expect(refreshed.access_token).not.toBe(result.access_token);
  });

  it("the ID token's signature checks against the JWKS (non-repudiation)", async () => {
    const { response } = await codeFlow();
    await expect(oauth.validateApplicationLevelSignature(as, response, insecure)).resolves.toBeUndefined();
  });

  it("the application's backend validates the SPA's access token (RFC 9068) and introspects it", async () => {
    const { result } = await codeFlow();
    const request = new Request(`${base}/resource`, { headers: { authorization: `Bearer ${result.access_token}` } });
    const jwt = await oauth.validateJwtAccessToken(as, request, base, insecure);
    expect(jwt).toMatchObject({ iss: base, client_id: app.entrypoint, sub: String(user.id) });
    const backend: oauth.Client = { client_id: app.id };
    const introspected = await oauth.processIntrospectionResponse(
      as,
      backend,
      await oauth.introspectionRequest(
        as,
        backend,
        oauth.ClientSecretBasic(app.password),
        result.access_token,
        insecure,
      ),
    );
    expect(introspected).toMatchObject({ active: true, client_id: app.entrypoint, token_type: "Bearer" });
    const refresh = await oauth.processIntrospectionResponse(
      as,
      backend,
      await oauth.introspectionRequest(
        as,
        backend,
        oauth.ClientSecretPost(app.password),
        result.refresh_token!,
        insecure,
      ),
    );
    expect(refresh).toMatchObject({ active: true, client_id: app.entrypoint, token_type: "refresh_token", aud: base });
  });
});
