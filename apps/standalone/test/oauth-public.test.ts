import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  authorizePath,
  confirmedUser,
  exchange,
  formOf,
  loginForCode,
  pkce,
  postLogin,
  publicTokenRequest,
  REDIRECT,
  validAuthorize,
} from "./oauth-flow.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { createApp, PASSWORD, send, SOURCE, type FlowApp, type LoggedUser } from "./user-flows.ts";

// Contract section 9: each entry point id is a public OAuth client of its
// application (no secret, PKCE S256, rotating refresh tokens, the
// application's redirect URIs); and the authorization request's OpenID
// Connect parameters (login_hint, prompt, max_age).
describe("public clients and the authorization request", () => {
  let s: TestStack;
  let app: FlowApp;
  let user: LoggedUser;
  let mobile: string;
  beforeAll(async () => {
    s = await startTestStack();
    app = await createApp(s, "shop", (body) => {
      body.redirectUris = [REDIRECT, "com.example.shop:/oauth2redirect"];
      body.entrypoints.push({ ...body.entrypoints[0], key: "mobile", displayName: "Mobile" });
    });
    user = await confirmedUser(s, app);
    mobile = `${app.id}_mobile`;
  });
  afterAll(() => s.close());

  /** The hosted login for the public client `clientId`, then the code exchanged without a secret. */
  async function publicLogin(clientId: string, extra: Record<string, string> = {}) {
    const { verifier, challenge } = pkce();
    const params = validAuthorize(app, challenge, {
      client_id: clientId,
      scope: "openid profile email offline_access",
      ...extra,
    });
    const { query } = await loginForCode(s, params, user.email, PASSWORD);
    const res = await publicTokenRequest(s, clientId, {
      grant_type: "authorization_code",
      code: query.get("code")!,
      redirect_uri: params.redirect_uri!,
      code_verifier: verifier,
    });
    return { res, params, verifier, challenge, query };
  }

  it("signs in an entry point's public client with PKCE and no secret; tokens name the entry point and its application", async () => {
    const { res, params, challenge } = await publicLogin(app.entrypoint);
    expect(res.statusCode).toBe(200);
    const t = res.json();
    expect(t).toMatchObject({ token_type: "Bearer", scope: "openid profile email offline_access" });
    expect(decodeJwt(t.access_token)).toMatchObject({
      client_id: app.entrypoint,
      app_id: app.id,
      sub: String(user.id),
      code_challenge: challenge,
    });
    const id = decodeJwt(t.id_token);
    expect(id).toMatchObject({ aud: app.entrypoint, sub: String(user.id), nonce: params.nonce });
    expect(Math.abs(Number(id.auth_time) - Date.now() / 1000)).toBeLessThan(30);

    // Refresh tokens rotate; each refresh brings a new ID token (same auth_time, no nonce).
    const r = await publicTokenRequest(s, app.entrypoint, {
      grant_type: "refresh_token",
      refresh_token: t.refresh_token,
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().refresh_token).not.toBe(t.refresh_token);
    const renewed = decodeJwt(r.json().id_token);
    expect(renewed).toMatchObject({ aud: app.entrypoint, auth_time: id.auth_time, sid: id.sid });
    expect(renewed.nonce).toBeUndefined();
    const reuse = await publicTokenRequest(s, app.entrypoint, {
      grant_type: "refresh_token",
      refresh_token: t.refresh_token,
    });
    expect(reuse.json().error).toBe("invalid_grant");
    // The whole family died with the reuse.
    expect(
      (
        await publicTokenRequest(s, app.entrypoint, {
          grant_type: "refresh_token",
          refresh_token: r.json().refresh_token,
        })
      ).json().error,
    ).toBe("invalid_grant");
  });

  it("takes Basic credentials with an empty secret as the public client (requests-oauthlib's and x/oauth2's default), never as the application", async () => {
    const { verifier, challenge } = pkce();
    const params = validAuthorize(app, challenge, { client_id: app.entrypoint, scope: "openid offline_access" });
    const { query } = await loginForCode(s, params, user.email, PASSWORD);
    const noSecret = (id: string) => ({ authorization: `Basic ${Buffer.from(`${id}:`).toString("base64")}` });
    const form = {
      grant_type: "authorization_code",
      code: query.get("code")!,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    };
    const res = await publicTokenRequest(s, app.entrypoint, form, noSecret(app.entrypoint));
    expect(res.statusCode).toBe(200);
    expect(decodeJwt(res.json().access_token)).toMatchObject({ client_id: app.entrypoint, app_id: app.id });
    const post = (id: string, form: Record<string, string>) =>
      s.app.inject({
        method: "POST",
        url: "/oauth2/token",
        headers: { ...noSecret(id), "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams(form).toString(),
      });
    expect(
      (await post(app.entrypoint, { grant_type: "refresh_token", refresh_token: res.json().refresh_token })).statusCode,
    ).toBe(200);
    // The application's id without its secret is no public client.
    const app401 = await post(app.id, { grant_type: "client_credentials" });
    expect(app401.statusCode).toBe(401);
    expect(app401.json().error).toBe("invalid_client");
    expect(app401.headers["www-authenticate"]).toMatch(/^Basic /);
  });

  it("the public client's CHALLENGE_CODE_TOKEN patches the user (the token acts for the application)", async () => {
    const { res, verifier } = await publicLogin(app.entrypoint);
    const t = res.json();
    const body = {
      actor: { id: String(user.id), objectType: "person" },
      verb: "update",
      object: { objectType: "user", datas: { birthday: { objectType: "data", value: "1991-02-03" } } },
      source: SOURCE,
    };
    const ok = await send(
      s,
      "PATCH",
      `/activityid/v1/user/update/${user.id}?code_verifier=${verifier}`,
      t.access_token,
      app.entrypoint,
      body,
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.json().content.user.datas.birthday.value).toBe("1991-02-03");
    // Revocation with the client_id alone answers {} and ends the session.
    const revoked = await s.app.inject({
      method: "POST",
      url: "/oauth2/revoke",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({
        client_id: app.entrypoint,
        token: t.refresh_token,
        token_type_hint: "refresh_token",
      }).toString(),
    });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({});
    expect(
      (
        await s.app.inject({
          method: "GET",
          url: "/oauth2/userinfo",
          headers: { authorization: `Bearer ${t.access_token}` },
        })
      ).statusCode,
    ).toBe(401);
  });

  it("keeps the public client and the application apart: codes, refresh tokens and client_credentials", async () => {
    const { verifier, challenge } = pkce();
    const params = validAuthorize(app, challenge, { client_id: app.entrypoint });
    const { query } = await loginForCode(s, params, user.email, PASSWORD);
    const stolen = await exchange(s, app, { code: query.get("code")!, code_verifier: verifier });
    expect(stolen.json().error).toBe("invalid_grant");
    const cc = await publicTokenRequest(s, app.entrypoint, { grant_type: "client_credentials" });
    expect(cc.statusCode).toBe(400);
    expect(cc.json().error).toBe("unauthorized_client");
    // The application id without its secret is not a public client.
    expect((await publicTokenRequest(s, app.id, { grant_type: "client_credentials" })).statusCode).toBe(401);
  });

  it("uses the application's redirect URIs, and only its own entry point", async () => {
    const { challenge } = pkce();
    const unknownRedirect = await s.app.inject({
      method: "GET",
      url: authorizePath(
        validAuthorize(app, challenge, { client_id: app.entrypoint, redirect_uri: "https://evil.example/cb" }),
      ),
    });
    expect(unknownRedirect.statusCode).toBe(400);
    const native = await s.app.inject({
      method: "GET",
      url: authorizePath(
        validAuthorize(app, challenge, { client_id: app.entrypoint, redirect_uri: "com.example.shop:/oauth2redirect" }),
      ),
    });
    expect(native.statusCode).toBe(200);
    const other = await s.app.inject({
      method: "GET",
      url: authorizePath(validAuthorize(app, challenge, { client_id: app.entrypoint, entrypoint: mobile })),
    });
    expect(other.statusCode).toBe(302);
    expect(new URL(String(other.headers.location)).searchParams.get("error")).toBe("invalid_request");
    const own = await s.app.inject({
      method: "GET",
      url: authorizePath(validAuthorize(app, challenge, { client_id: app.entrypoint, entrypoint: "web" })),
    });
    expect(own.statusCode).toBe(200);
    // PKCE stays mandatory.
    const noPkce = await s.app.inject({
      method: "GET",
      url: authorizePath(validAuthorize(app, challenge, { client_id: app.entrypoint, code_challenge: undefined })),
    });
    expect(new URL(String(noPkce.headers.location)).searchParams.get("error")).toBe("invalid_request");
  });

  it("prefills the email with login_hint (an email only), and keeps it across a failed attempt", async () => {
    const { challenge } = pkce();
    const hinted = await s.app.inject({
      method: "GET",
      url: authorizePath(validAuthorize(app, challenge, { login_hint: "ana+hint@example.com" })),
    });
    const emailInput = (body: string) => /<input [^>]*id="email" name="email"[^>]*>/.exec(body)?.[0] ?? "";
    expect(emailInput(hinted.body)).toMatch(/type="email"[^>]* value="ana\+hint@example\.com"/);
    const wrong = await postLogin(s, formOf(hinted), "ana+hint@example.com", "not the password");
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('value="ana+hint@example.com"');
    const notEmail = await s.app.inject({
      method: "GET",
      url: authorizePath(validAuthorize(app, challenge, { login_hint: "+34600111222" })),
    });
    expect(emailInput(notEmail.body)).toMatch(/ value=""/);
    const escaped = await s.app.inject({
      method: "GET",
      url: authorizePath(validAuthorize(app, challenge, { login_hint: '"><script>@x' })),
    });
    expect(escaped.body).not.toContain("<script>");
  });

  it("honours prompt and max_age: a fresh sign-in every time, auth_time in the ID token", async () => {
    const { challenge } = pkce();
    const redirectError = async (extra: Record<string, string>) => {
      const res = await s.app.inject({ method: "GET", url: authorizePath(validAuthorize(app, challenge, extra)) });
      return res.statusCode === 302
        ? new URL(String(res.headers.location)).searchParams.get("error")
        : `page ${res.statusCode}`;
    };
    expect(await redirectError({ prompt: "none" })).toBe("login_required");
    expect(await redirectError({ prompt: "none login" })).toBe("invalid_request");
    expect(await redirectError({ max_age: "ten" })).toBe("invalid_request");
    expect(await redirectError({ max_age: "-1" })).toBe("invalid_request");
    expect(await redirectError({ prompt: "login", max_age: "0" })).toBe("page 200");

    const before = Math.floor(Date.now() / 1000);
    const { res } = await publicLogin(app.entrypoint, { prompt: "login", max_age: "0" });
    const id = decodeJwt(res.json().id_token);
    expect(id.auth_time).toBeGreaterThanOrEqual(before - 1);
    expect(id.auth_time).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });
});
