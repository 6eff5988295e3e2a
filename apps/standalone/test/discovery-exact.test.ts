import { createHash } from "node:crypto";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  authorizePath,
  exchange,
  loginForCode,
  pkce,
  publicTokenRequest,
  REDIRECT,
  validAuthorize,
} from "./oauth-flow.ts";
import { OPERATOR, startTestStack, type TestStack } from "./stack-helpers.ts";
import { createApp, loggedUser, PASSWORD, type FlowApp, type LoggedUser } from "./user-flows.ts";

// Contract section 9: discovery is exact. Everything the OpenID Connect
// discovery document advertises is exercised here and works; what it
// declines (request objects, request_uri) is refused.
const PROFILE_FIELDS = ["surname", "second_surname", "nickname", "gender", "locale"];

describe("discovery is exact", () => {
  let s: TestStack;
  let app: FlowApp;
  let user: LoggedUser;
  let meta: Record<string, any>;
  beforeAll(async () => {
    s = await startTestStack();
    app = await createApp(s, "disc", (body) => {
      body.redirectUris = [REDIRECT];
      for (const key of PROFILE_FIELDS)
        body.entrypoints[0].fields.push({ objectType: "fieldConfig", type: "field", key, mandatory: false });
    });
    user = await loggedUser(s, app);
    const datas = Object.fromEntries(
      [...PROFILE_FIELDS.map((k) => [k, `${k}-value`]), ["birthday", "1990-01-02"], ["locale", "es-ES"]].map(
        ([k, v]) => [k, { objectType: "data", value: v }],
      ),
    );
    const patch = await s.app.inject({
      method: "PATCH",
      url: `/activityid/v1/user/update/${user.id}`,
      headers: {
        authorization: `Bearer ${user.accessToken}`,
        "content-type": "application/json",
        accept: "application/json",
        from: app.entrypoint,
      },
      payload: JSON.stringify({
        actor: { id: String(user.id), objectType: "person" },
        verb: "update",
        object: { objectType: "user", password: PASSWORD, datas },
        source: { id: "pc", objectType: "device" },
      }),
    });
    expect(patch.statusCode).toBe(200);
    meta = (await s.app.inject({ method: "GET", url: "/.well-known/openid-configuration" })).json();
  });
  afterAll(() => s.close());

  const form = (url: string, body: Record<string, string>, authorization?: string) =>
    s.app.inject({
      method: "POST",
      url,
      headers: { "content-type": "application/x-www-form-urlencoded", ...(authorization ? { authorization } : {}) },
      payload: new URLSearchParams(body).toString(),
    });
  const relative = (url: string) => url.slice(s.config.publicAuthUrl.length);
  const authorizeError = async (extra: Record<string, string | undefined>) => {
    const res = await s.app.inject({ method: "GET", url: authorizePath(validAuthorize(app, pkce().challenge, extra)) });
    return res.statusCode === 302 ? new URL(String(res.headers.location)).searchParams.get("error") : res.statusCode;
  };

  it("advertises exactly these members, the OAuth metadata being the same", async () => {
    expect(Object.keys(meta).sort()).toEqual(
      [
        "issuer",
        "authorization_endpoint",
        "token_endpoint",
        "jwks_uri",
        "introspection_endpoint",
        "revocation_endpoint",
        "device_authorization_endpoint",
        "userinfo_endpoint",
        "end_session_endpoint",
        "grant_types_supported",
        "response_types_supported",
        "response_modes_supported",
        "code_challenge_methods_supported",
        "authorization_response_iss_parameter_supported",
        "token_endpoint_auth_methods_supported",
        "revocation_endpoint_auth_methods_supported",
        "introspection_endpoint_auth_methods_supported",
        "scopes_supported",
        "ui_locales_supported",
        "request_parameter_supported",
        "request_uri_parameter_supported",
        "service_documentation",
        "subject_types_supported",
        "id_token_signing_alg_values_supported",
        "claims_supported",
        "claims_parameter_supported",
        "prompt_values_supported",
      ].sort(),
    );
    expect(meta).toMatchObject({
      request_parameter_supported: false,
      request_uri_parameter_supported: false,
      claims_parameter_supported: false,
    });
    const oauth = (await s.app.inject({ method: "GET", url: "/.well-known/oauth-authorization-server" })).json();
    for (const [k, v] of Object.entries(oauth)) expect(meta[k]).toEqual(v);
    expect(oauth.userinfo_endpoint).toBeUndefined();
  });

  it("every endpoint answers at its advertised address", async () => {
    for (const key of [
      "authorization_endpoint",
      "token_endpoint",
      "jwks_uri",
      "introspection_endpoint",
      "revocation_endpoint",
      "device_authorization_endpoint",
      "userinfo_endpoint",
      "end_session_endpoint",
    ]) {
      expect(meta[key].startsWith(`${s.config.publicAuthUrl}/oauth2/`)).toBe(true);
    }
    expect((await s.app.inject({ method: "GET", url: relative(meta.authorization_endpoint) })).statusCode).toBe(400);
    expect((await form(relative(meta.token_endpoint), { grant_type: "client_credentials" })).json().error).toBe(
      "invalid_client",
    );
    expect((await form(relative(meta.introspection_endpoint), { token: "x" })).json().error).toBe("invalid_client");
    expect((await form(relative(meta.revocation_endpoint), { token: "x" })).json().error).toBe("invalid_client");
    expect((await form(relative(meta.device_authorization_endpoint), {})).json().error).toBe("invalid_client");
    expect((await s.app.inject({ method: "GET", url: relative(meta.userinfo_endpoint) })).statusCode).toBe(401);
    expect((await s.app.inject({ method: "GET", url: relative(meta.end_session_endpoint) })).statusCode).toBe(200);
    const jwks = (await s.app.inject({ method: "GET", url: relative(meta.jwks_uri) })).json();
    expect(jwks.keys.length).toBeGreaterThanOrEqual(2);
    expect((await s.app.inject({ method: "GET", url: "/docs/" })).statusCode).toBe(200);
  });

  it("every grant and token endpoint authentication method works; the ID token algorithm is the one advertised", async () => {
    expect(meta.grant_types_supported.sort()).toEqual([
      "authorization_code",
      "client_credentials",
      "refresh_token",
      "urn:ietf:params:oauth:grant-type:device_code",
    ]);
    // The device grant end to end is device-grant.test.ts; here: it is a grant of the token endpoint.
    const device = await publicTokenRequest(s, app.entrypoint, {
      grant_type: "urn:ietf:params:oauth:grant-type:device_code",
      device_code: "unknown",
    });
    expect(device.json().error).toBe("invalid_grant");
    expect(meta.token_endpoint_auth_methods_supported).toEqual(["client_secret_basic", "client_secret_post", "none"]);
    // client_credentials with client_secret_basic and client_secret_post.
    expect(
      (await form("/oauth2/token", { grant_type: "client_credentials" }, s.basic(app.id, app.password))).statusCode,
    ).toBe(200);
    expect(
      (
        await form("/oauth2/token", {
          grant_type: "client_credentials",
          client_id: app.id,
          client_secret: app.password,
        })
      ).statusCode,
    ).toBe(200);
    // authorization_code: confidential (basic) and public (none); refresh_token both ways.
    const { verifier, challenge } = pkce();
    const { query } = await loginForCode(s, validAuthorize(app, challenge), user.email, PASSWORD);
    expect(query.get("iss")).toBe(meta.issuer);
    const confidential = await exchange(s, app, { code: query.get("code")!, code_verifier: verifier });
    expect(confidential.statusCode).toBe(200);
    expect(
      (
        await form("/oauth2/token", {
          grant_type: "refresh_token",
          refresh_token: confidential.json().refresh_token,
          client_id: app.id,
          client_secret: app.password,
        })
      ).statusCode,
    ).toBe(200);
    const p = pkce();
    const pub = await loginForCode(
      s,
      validAuthorize(app, p.challenge, { client_id: app.entrypoint }),
      user.email,
      PASSWORD,
    );
    const t = await publicTokenRequest(s, app.entrypoint, {
      grant_type: "authorization_code",
      code: pub.query.get("code")!,
      redirect_uri: REDIRECT,
      code_verifier: p.verifier,
    });
    expect(t.statusCode).toBe(200);
    const refreshed = await publicTokenRequest(s, app.entrypoint, {
      grant_type: "refresh_token",
      refresh_token: t.json().refresh_token,
    });
    expect(refreshed.statusCode).toBe(200);

    const [alg] = meta.id_token_signing_alg_values_supported;
    expect(meta.id_token_signing_alg_values_supported).toEqual(["RS256"]);
    for (const token of [
      confidential.json().id_token,
      t.json().id_token,
      refreshed.json().id_token,
      t.json().access_token,
    ]) {
      const header = decodeProtectedHeader(token);
      expect(header.alg).toBe(alg);
      const jwks = (await s.app.inject({ method: "GET", url: "/oauth2/jwks" })).json();
      expect(jwks.keys.find((k: { kid: string }) => k.kid === header.kid)).toMatchObject({
        alg,
        kty: "RSA",
        use: "sig",
      });
    }
    // at_hash of RS256 is the left half of SHA-256.
    const atHash = createHash("sha256").update(t.json().access_token).digest().subarray(0, 16).toString("base64url");
    expect(decodeJwt(t.json().id_token).at_hash).toBe(atHash);

    // Revocation and introspection with each advertised method.
    expect(meta.revocation_endpoint_auth_methods_supported).toEqual([
      "client_secret_basic",
      "client_secret_post",
      "none",
    ]);
    expect(meta.introspection_endpoint_auth_methods_supported).toEqual(["client_secret_basic", "client_secret_post"]);
    const access = refreshed.json().access_token as string;
    expect((await form("/oauth2/introspect", { token: access }, s.basic(app.id, app.password))).json().active).toBe(
      true,
    );
    expect(
      (
        await form("/oauth2/introspect", { token: access, client_id: OPERATOR.id, client_secret: OPERATOR.secret })
      ).json().active,
    ).toBe(true);
    expect((await form("/oauth2/introspect", { token: access, client_id: app.entrypoint })).statusCode).toBe(401);
    for (const [body, auth] of [
      [{ token: confidential.json().access_token }, s.basic(app.id, app.password)],
      [{ token: "x", client_id: app.id, client_secret: app.password }, undefined],
      [{ token: refreshed.json().refresh_token, client_id: app.entrypoint }, undefined],
    ] as const) {
      const res = await form("/oauth2/revoke", body, auth);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({});
    }
  });

  it("every advertised scope is accepted at /authorize and granted; nothing else is", async () => {
    expect(meta.scopes_supported).toEqual(["openid", "profile", "email", "offline_access"]);
    for (const scope of meta.scopes_supported) {
      const { verifier, challenge } = pkce();
      const { query } = await loginForCode(s, validAuthorize(app, challenge, { scope }), user.email, PASSWORD);
      const t = await exchange(s, app, { code: query.get("code")!, code_verifier: verifier });
      expect(t.json().scope).toBe(scope);
    }
    for (const scope of ["apps:write", "admin", "users:access", "address"])
      expect(await authorizeError({ scope })).toBe("invalid_scope");
  });

  it("response types and modes, PKCE methods, prompts, UI locales and request objects are as advertised", async () => {
    expect(meta).toMatchObject({
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      code_challenge_methods_supported: ["S256"],
    });
    expect(await authorizeError({ response_type: "token" })).toBe("unsupported_response_type");
    expect(await authorizeError({ response_type: "code id_token" })).toBe("unsupported_response_type");
    expect(await authorizeError({ response_mode: "fragment" })).toBe("invalid_request");
    expect(await authorizeError({ response_mode: "query" })).toBe(200);
    expect(await authorizeError({ code_challenge_method: "plain" })).toBe("invalid_request");
    expect(meta.prompt_values_supported).toEqual(["none", "login", "create"]);
    expect(await authorizeError({ prompt: "none" })).toBe("login_required");
    expect(await authorizeError({ prompt: "login" })).toBe(200);
    // OpenID Connect Prompt Create: the entry point's registration page.
    expect(await authorizeError({ prompt: "create" })).toBe(200);
    const create = await s.app.inject({
      method: "GET",
      url: authorizePath(validAuthorize(app, pkce().challenge, { prompt: "create" })),
    });
    expect(create.body).toContain('name="intent" value="register"');
    expect(meta.ui_locales_supported).toEqual(["en", "es"]);
    const es = await s.app.inject({
      method: "GET",
      url: authorizePath(validAuthorize(app, pkce().challenge, { ui_locales: "es" })),
    });
    expect(es.body).toContain('<html lang="es">');
    expect(await authorizeError({ request: "eyJhbGciOiJub25lIn0.e30." })).toBe("request_not_supported");
    expect(await authorizeError({ request_uri: "urn:ietf:params:oauth:request_uri:x" })).toBe(
      "request_uri_not_supported",
    );
    expect(meta.subject_types_supported).toEqual(["public"]);
  });

  it("every advertised claim is given: in the ID token or at UserInfo", async () => {
    const { verifier, challenge } = pkce();
    const { query } = await loginForCode(
      s,
      validAuthorize(app, challenge, { scope: "openid profile email" }),
      user.email,
      PASSWORD,
    );
    const t = (await exchange(s, app, { code: query.get("code")!, code_verifier: verifier })).json();
    const info = (
      await s.app.inject({
        method: "GET",
        url: "/oauth2/userinfo",
        headers: { authorization: `Bearer ${t.access_token}` },
      })
    ).json();
    const given = new Set([...Object.keys(decodeJwt(t.id_token)), ...Object.keys(info)]);
    expect(meta.claims_supported.filter((c: string) => !given.has(c))).toEqual([]);
    expect(info).toMatchObject({
      name: "Ana",
      family_name: "surname-value second_surname-value",
      nickname: "nickname-value",
      birthdate: "1990-01-02",
      gender: "gender-value",
      locale: "es-ES",
      email_verified: true,
    });
  });
});
