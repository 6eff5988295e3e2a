import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  authorizePath,
  confirmedUser,
  createOAuthApp,
  exchange,
  formOf,
  loginForCode,
  pkce,
  postLogin,
  REDIRECT,
  validAuthorize,
} from "./oauth-flow.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { PASSWORD, registerEnvelope, send, SOURCE, type FlowApp, type LoggedUser } from "./user-flows.ts";

// The authorization code flow with PKCE through the gateway: hosted login,
// code, tokens, CHALLENGE_CODE_TOKEN on patch, UserInfo, refresh, logout.
describe.each([
  ["PostgreSQL + Redis", false],
  ["the embedded default", true],
])("authorization code flow on %s", (_name, embedded) => {
  let s: TestStack;
  let app: FlowApp;
  let user: LoggedUser;
  beforeAll(async () => {
    s = await startTestStack({ embedded });
    app = await createOAuthApp(s);
    user = await confirmedUser(s, app);
  });
  afterAll(() => s.close());

  const patchBody = (u: LoggedUser, object: Record<string, unknown>) => ({
    actor: { id: String(u.id), objectType: "person" },
    verb: "update",
    object: { objectType: "user", ...object },
    source: SOURCE,
  });

  it("shows an accessible, phone-ready, CSRF-protected login page that cannot be framed or cached", async () => {
    const { challenge } = pkce();
    const res = await s.app.inject({ method: "GET", url: authorizePath(validAuthorize(app, challenge)) });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["x-frame-options"]).toBe("DENY");
    expect(res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(String(res.headers["set-cookie"])).toMatch(/HttpOnly; SameSite=Lax/);
    expect(res.body).toContain('<html lang="en">');
    expect(res.body).toContain('name="viewport" content="width=device-width, initial-scale=1"');
    const input = (name: string) =>
      new RegExp(`<input [^>]*id="${name}" name="${name}"[^>]*>`).exec(res.body)?.[0] ?? "";
    expect(res.body).toMatch(/<label for="email">[^<]+<\/label>/);
    // Passkeys in the identifier's autofill (contract section 12).
    expect(input("email")).toMatch(/type="email"[^>]*required[^>]*autocomplete="username webauthn"/);
    expect(res.body).toMatch(/<label for="password">[^<]+<\/label>/);
    expect(input("password")).toMatch(/type="password"[^>]*required[^>]*autocomplete="current-password"/);
    // One submit button signs in with the password (contract section 7); the code sign-in is a second, distinct
    // submit input; the passkey button (section 12) is a plain button, hidden until its script shows it.
    expect(res.body.match(/<button type="submit"/g)).toHaveLength(1);
    expect(res.body).toMatch(
      /<button type="button" class="btn secondary" data-passkey-start hidden>Sign in with a passkey<\/button>/,
    );
    expect(res.body).toMatch(/<button type="submit" class="btn primary">Sign in<\/button>/);
    expect(res.body).toMatch(
      /<input type="submit" class="btn secondary" name="send_code" value="Email me a code" formnovalidate>/,
    );

    const es = await s.app.inject({
      method: "GET",
      url: authorizePath(validAuthorize(app, challenge)),
      headers: { "accept-language": "es-ES,es;q=0.9" },
    });
    expect(es.body).toContain('<html lang="es">');
    expect(es.body).toContain("Contraseña");
  });

  it("logs in, redirects to the exact redirect_uri with code, state and iss, and the code buys the user's tokens", async () => {
    const { verifier, challenge } = pkce();
    const params = validAuthorize(app, challenge);
    const loginAt = Math.floor(Date.now() / 1000);
    const { location, query } = await loginForCode(s, params, user.email, PASSWORD);
    expect(location.startsWith(`${REDIRECT}?`)).toBe(true);
    expect(query.get("state")).toBe(params.state);
    expect(query.get("iss")).toBe(s.config.publicAuthUrl);
    const code = query.get("code")!;

    const res = await exchange(s, app, { code, code_verifier: verifier });
    expect(res.statusCode).toBe(200);
    const t = res.json();
    expect(t).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "openid profile email" });
    expect(t.refresh_token).toBeTruthy();
    expect(decodeJwt(t.access_token)).toMatchObject({
      sub: String(user.id),
      client_id: app.id,
      code_challenge: challenge,
    });
    expect(decodeJwt(t.id_token)).toMatchObject({
      iss: s.config.publicAuthUrl,
      sub: String(user.id),
      aud: app.id,
      nonce: params.nonce,
    });
    // auth_time: when the hosted login checked the password.
    expect(decodeJwt(t.id_token).auth_time).toBeGreaterThanOrEqual(loginAt);
    expect(decodeJwt(t.id_token).auth_time).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));

    const info = await s.app.inject({
      method: "GET",
      url: "/oauth2/userinfo",
      headers: { authorization: `Bearer ${t.access_token}` },
    });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({ sub: String(user.id), email: user.email, email_verified: true, name: "Ana" });

    const replay = await exchange(s, app, { code, code_verifier: verifier });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error).toBe("invalid_grant");
    const after = await s.app.inject({
      method: "GET",
      url: "/oauth2/userinfo",
      headers: { authorization: `Bearer ${t.access_token}` },
    });
    expect(after.statusCode).toBe(401);
  });

  it("a CHALLENGE_CODE_TOKEN patches without the password only with the matching code_verifier", async () => {
    const { verifier, challenge } = pkce();
    const { query } = await loginForCode(s, validAuthorize(app, challenge), user.email, PASSWORD);
    const t = (await exchange(s, app, { code: query.get("code")!, code_verifier: verifier })).json();
    const body = patchBody(user, { datas: { birthday: { objectType: "data", value: "1990-05-17" } } });
    const path = `/activityid/v1/user/update/${user.id}`;

    expect((await send(s, "PATCH", path, t.access_token, app.entrypoint, body)).statusCode).toBe(401);
    expect(
      (await send(s, "PATCH", `${path}?code_verifier=${pkce().verifier}`, t.access_token, app.entrypoint, body))
        .statusCode,
    ).toBe(401);
    const ok = await send(s, "PATCH", `${path}?code_verifier=${verifier}`, t.access_token, app.entrypoint, body);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().content.user.datas.birthday.value).toBe("1990-05-17");
    // An ordinary login token still needs the password.
    expect(
      (await send(s, "PATCH", path, user.accessToken, app.entrypoint, patchBody(user, { datas: {} }))).statusCode,
    ).toBe(400);

    // The refreshed access token is still a CHALLENGE_CODE_TOKEN.
    const r = await exchange(s, app, { grant_type: "refresh_token", refresh_token: t.refresh_token });
    expect(r.statusCode).toBe(200);
    expect(decodeJwt(r.json().access_token).code_challenge).toBe(challenge);
  });

  it("re-shows the form for a wrong password, and asks an unconfirmed user for the code that was sent", async () => {
    const { challenge } = pkce();
    const page = await s.app.inject({ method: "GET", url: authorizePath(validAuthorize(app, challenge)) });
    const form = formOf(page);
    const wrong = await postLogin(s, form, user.email, "not the password");
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers.location).toBeUndefined();
    expect(wrong.body).toContain('role="alert"');
    expect(wrong.body).toContain('name="password"');
    const unknown = await postLogin(s, formOf(wrong, form.cookie), "nobody@example.com", "not the password");
    expect(unknown.body.replace(/value="[^"]*"/g, "")).toBe(wrong.body.replace(/value="[^"]*"/g, ""));

    const email = `unconfirmed${Date.now()}@example.com`;
    expect(
      (await send(s, "POST", "/activityid/v1/user/register", app.token, app.entrypoint, registerEnvelope(app, email)))
        .statusCode,
    ).toBe(201);
    const pending = await postLogin(s, formOf(unknown, form.cookie), email, PASSWORD);
    expect(pending.statusCode).toBe(200);
    expect(pending.headers.location).toBeUndefined();
    expect(pending.body).toMatch(/<input [^>]*name="code"[^>]*autocomplete="one-time-code"/);
    expect(pending.body).toMatch(/name="flow_token" value="[^"]+"/);
    expect(pending.body).toContain('name="resend" value="Send a new code"');
  });

  it("refuses a form posted without its cookie, with another browser's cookie, or tampered with", async () => {
    const { challenge } = pkce();
    const page = await s.app.inject({ method: "GET", url: authorizePath(validAuthorize(app, challenge)) });
    const form = formOf(page);
    const other = formOf(await s.app.inject({ method: "GET", url: authorizePath(validAuthorize(app, challenge)) }));
    const [payload, mac] = form.token.split(".");
    const forged = JSON.parse(Buffer.from(payload!, "base64url").toString());
    forged.redirectUri = "https://evil.example/cb";
    const attempts = [
      postLogin(s, { token: form.token, cookie: "" }, user.email, PASSWORD),
      postLogin(s, { token: form.token, cookie: other.cookie }, user.email, PASSWORD),
      postLogin(
        s,
        { token: `${Buffer.from(JSON.stringify(forged)).toString("base64url")}.${mac}`, cookie: form.cookie },
        user.email,
        PASSWORD,
      ),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode).toBe(400);
      expect(res.headers.location).toBeUndefined();
    }
  });

  it("ends the session at RP-initiated logout and returns to the registered URI", async () => {
    const { verifier, challenge } = pkce();
    const { query } = await loginForCode(s, validAuthorize(app, challenge), user.email, PASSWORD);
    const t = (await exchange(s, app, { code: query.get("code")!, code_verifier: verifier })).json();
    const bad = await s.app.inject({
      method: "GET",
      url: `/oauth2/logout?id_token_hint=${t.id_token}&post_logout_redirect_uri=${encodeURIComponent("https://evil.example/")}`,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers.location).toBeUndefined();
    const res = await s.app.inject({
      method: "GET",
      url: `/oauth2/logout?id_token_hint=${t.id_token}&post_logout_redirect_uri=${encodeURIComponent(REDIRECT)}&state=bye`,
    });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`${REDIRECT}?state=bye`);
    // Without state: back to the registered URI exactly (it had an empty query, "callback?").
    const stateless = await s.app.inject({
      method: "GET",
      url: `/oauth2/logout?client_id=${app.id}&post_logout_redirect_uri=${encodeURIComponent(REDIRECT)}`,
    });
    expect(stateless.statusCode).toBe(302);
    expect(stateless.headers.location).toBe(REDIRECT);
    const r = await exchange(s, app, { grant_type: "refresh_token", refresh_token: t.refresh_token });
    expect(r.json().error).toBe("invalid_grant");
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

  it("publishes the code flow in the discovery documents", async () => {
    const o = (await s.app.inject({ method: "GET", url: "/.well-known/openid-configuration" })).json();
    const base = s.config.publicAuthUrl;
    expect(o).toMatchObject({
      authorization_endpoint: `${base}/oauth2/authorize`,
      userinfo_endpoint: `${base}/oauth2/userinfo`,
      end_session_endpoint: `${base}/oauth2/logout`,
      response_types_supported: ["code"],
      code_challenge_methods_supported: ["S256"],
    });
    expect(o.grant_types_supported).toEqual(
      expect.arrayContaining(["authorization_code", "refresh_token", "client_credentials"]),
    );
    expect(o.scopes_supported).toEqual(expect.arrayContaining(["openid", "profile", "email", "offline_access"]));
    expect(o.id_token_signing_alg_values_supported).toEqual(["RS256"]);
    expect(o.claims_supported).toEqual(expect.arrayContaining(["sub", "email", "email_verified", "name"]));
  });
});
