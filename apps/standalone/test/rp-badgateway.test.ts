import { generateCodeVerifier, OAuth2Client, OAuth2HttpError } from "@badgateway/oauth2-client";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmedUser, createOAuthApp, REDIRECT } from "./oauth-flow.ts";
import { hostedLogin, listeningStack } from "./rp-helpers.ts";
import type { TestStack } from "./stack-helpers.ts";
import { PASSWORD, type FlowApp, type LoggedUser } from "./user-flows.ts";

// A third, independent client library: @badgateway/oauth2-client (RFC 8414
// discovery, authorization code with PKCE, refresh, introspection,
// revocation). Its default Basic encoding is the raw "interop" one (only ':'
// escaped), its strict one form-encodes (RFC 6749 section 2.3.1); both must
// work, as must client_secret_post and the public client (no secret).
describe("@badgateway/oauth2-client as the relying party", () => {
  let s: TestStack;
  let base: string;
  let app: FlowApp;
  let user: LoggedUser;
  beforeAll(async () => {
    ({ s, base } = await listeningStack());
    app = await createOAuthApp(s);
    user = await confirmedUser(s, app);
  });
  afterAll(() => s?.close());

  const confidential = (
    authenticationMethod?: "client_secret_basic" | "client_secret_basic_interop" | "client_secret_post",
  ) =>
    new OAuth2Client({
      server: base,
      clientId: app.id,
      clientSecret: app.password,
      ...(authenticationMethod ? { authenticationMethod } : {}),
    });

  /** getAuthorizeUri with PKCE, the hosted login, getTokenFromCodeRedirect. */
  async function codeFlow(client: OAuth2Client) {
    const codeVerifier = await generateCodeVerifier();
    const state = `st-${Date.now()}`;
    const uri = await client.authorizationCode.getAuthorizeUri({
      redirectUri: REDIRECT,
      state,
      codeVerifier,
      scope: ["openid", "profile", "email", "offline_access"],
    });
    const callback = await hostedLogin(uri, user.email, PASSWORD);
    return client.authorizationCode.getTokenFromCodeRedirect(callback, { redirectUri: REDIRECT, state, codeVerifier });
  }

  // undefined: the library picks the first method of token_endpoint_auth_methods_supported it knows.
  it.each(["client_secret_basic", "client_secret_basic_interop", "client_secret_post", undefined] as const)(
    "confidential (%s): client_credentials, code + PKCE, refresh, introspection, revocation of both tokens",
    async (method) => {
      const client = confidential(method);
      const appToken = await client.clientCredentials();
      expect(decodeJwt(appToken.accessToken)).toMatchObject({ client_id: app.id, scope: "users:access" });
      expect(appToken.refreshToken).toBeNull();

      const token = await codeFlow(client);
      expect(decodeJwt(token.idToken!)).toMatchObject({ aud: app.id, sub: String(user.id) });
      const refreshed = await client.refreshToken(token);
      expect(refreshed.refreshToken).not.toBe(token.refreshToken);
      expect(refreshed.idToken).toBeTruthy();
      expect(await client.introspect(refreshed)).toMatchObject({
        active: true,
        client_id: app.id,
        sub: String(user.id),
      });

      // simple-oauth2's revokeAll pattern: the access token, then the refresh token; each answers 200 {}.
      await client.revoke(refreshed, "access_token");
      await client.revoke({ ...refreshed, accessToken: refreshed.refreshToken! }, "refresh_token");
      expect((await client.introspect(refreshed)).active).toBe(false);
      await expect(client.refreshToken(refreshed)).rejects.toBeInstanceOf(OAuth2HttpError);
    },
  );

  it("public client (the entry point id, no secret): code + PKCE, refresh, revocation", async () => {
    const client = new OAuth2Client({ server: base, clientId: app.entrypoint });
    const token = await codeFlow(client);
    expect(decodeJwt(token.accessToken)).toMatchObject({ client_id: app.entrypoint, app_id: app.id });
    const refreshed = await client.refreshToken(token);
    expect(refreshed.accessToken).not.toBe(token.accessToken);
    await client.revoke({ ...refreshed, accessToken: refreshed.refreshToken! }, "refresh_token");
    await expect(client.refreshToken(refreshed)).rejects.toMatchObject({ oauth2Code: "invalid_grant" });
  });
});
