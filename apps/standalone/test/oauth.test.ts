import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATOR, startTestStack, type TestStack } from "./stack-helpers.ts";

let s: TestStack;
beforeAll(async () => {
  s = await startTestStack();
});
afterAll(() => s.close());

const FORM = "application/x-www-form-urlencoded";
const form = (url: string, body: string | Record<string, string>, headers: Record<string, string> = {}) =>
  s.app.inject({
    method: "POST",
    url,
    headers: { "content-type": FORM, ...headers },
    payload: typeof body === "string" ? body : new URLSearchParams(body).toString(),
  });
const basic = () => ({ authorization: s.basic(OPERATOR.id, OPERATOR.secret) });

function expectOAuthError(res: Awaited<ReturnType<typeof form>>, status: number, error: string) {
  expect(res.statusCode).toBe(status);
  expect(res.json().error).toBe(error);
  expect(typeof res.json().error_description).toBe("string");
  expect(res.headers["cache-control"]).toBe("no-store");
}

describe("POST /oauth2/token client_credentials", () => {
  it("issues an RFC 9068 access token with client_secret_basic", async () => {
    const res = await form("/oauth2/token", { grant_type: "client_credentials", scope: "apps:read" }, basic());
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers.pragma).toBe("no-cache");
    const body = res.json();
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "apps:read" });
    expect(body).not.toHaveProperty("refresh_token");
    const header = decodeProtectedHeader(body.access_token);
    expect(header.typ).toBe("at+jwt");
    expect(header.alg).toBe("RS256");
    const jwks = (await s.app.inject({ method: "GET", url: "/oauth2/jwks" })).json();
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toContain(header.kid);
    for (const k of jwks.keys) expect(k).not.toHaveProperty("d");
    const { payload } = await jwtVerify(body.access_token, createLocalJWKSet(jwks), {
      issuer: "http://gatehouse.test",
      audience: "http://gatehouse.test",
      typ: "at+jwt",
    });
    expect(payload).toMatchObject({ sub: OPERATOR.id, client_id: OPERATOR.id, scope: "apps:read" });
    expect(typeof payload.jti).toBe("string");
    expect(payload.exp! - payload.iat!).toBe(3600);
  });

  it("accepts client_secret_post and grants every allowed scope when none is asked", async () => {
    const res = await form("/oauth2/token", {
      grant_type: "client_credentials",
      client_id: OPERATOR.id,
      client_secret: OPERATOR.secret,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().scope.split(" ").sort()).toEqual([
      "admin",
      "admin:read",
      "admin:write",
      "apps:read",
      "apps:write",
    ]);
  });

  it("answers 401 invalid_client with WWW-Authenticate for a failed Basic authentication", async () => {
    const wrong = await form(
      "/oauth2/token",
      { grant_type: "client_credentials" },
      { authorization: s.basic(OPERATOR.id, "wrong-secret") },
    );
    expectOAuthError(wrong, 401, "invalid_client");
    expect(wrong.headers["www-authenticate"]).toMatch(/^Basic /);
    const unknown = await form(
      "/oauth2/token",
      { grant_type: "client_credentials" },
      { authorization: s.basic("nobody", "x") },
    );
    expectOAuthError(unknown, 401, "invalid_client");
    expect(unknown.json()).toEqual(wrong.json()); // the same answer for an unknown client and a wrong secret
    const malformed = await form("/oauth2/token", { grant_type: "client_credentials" }, { authorization: "Basic !!!" });
    expectOAuthError(malformed, 401, "invalid_client");
    expect(malformed.headers["www-authenticate"]).toMatch(/^Basic /);
  });

  it("answers invalid_client for missing or wrong client_secret_post credentials", async () => {
    const none = await form("/oauth2/token", { grant_type: "client_credentials" });
    expectOAuthError(none, 401, "invalid_client");
    expect(none.headers["www-authenticate"]).toBeUndefined();
    expectOAuthError(
      await form("/oauth2/token", { grant_type: "client_credentials", client_id: OPERATOR.id, client_secret: "nope" }),
      401,
      "invalid_client",
    );
  });

  it("answers invalid_request for two auth methods, repeated parameters, a JSON body, no grant_type", async () => {
    expectOAuthError(
      await form("/oauth2/token", { grant_type: "client_credentials", client_secret: "x" }, basic()),
      400,
      "invalid_request",
    );
    expectOAuthError(
      await form("/oauth2/token", "grant_type=client_credentials&grant_type=client_credentials", basic()),
      400,
      "invalid_request",
    );
    const json = await s.app.inject({
      method: "POST",
      url: "/oauth2/token",
      headers: { ...basic(), "content-type": "application/json" },
      payload: JSON.stringify({ grant_type: "client_credentials" }),
    });
    expectOAuthError(json, 400, "invalid_request");
    expectOAuthError(await form("/oauth2/token", {}, basic()), 400, "invalid_request");
  });

  it("answers unsupported_grant_type and invalid_scope", async () => {
    expectOAuthError(
      await form("/oauth2/token", { grant_type: "password", username: "a", password: "b" }, basic()),
      400,
      "unsupported_grant_type",
    );
    expectOAuthError(
      await form("/oauth2/token", { grant_type: "client_credentials", scope: "users:delete" }, basic()),
      400,
      "invalid_scope",
    );
    expectOAuthError(
      await form("/oauth2/token", { grant_type: "client_credentials", scope: 'apps:read "x' }, basic()),
      400,
      "invalid_scope",
    );
  });
});

describe("introspection and revocation", () => {
  const token = async () =>
    (await form("/oauth2/token", { grant_type: "client_credentials", scope: "apps:read" }, basic())).json()
      .access_token as string;

  it("introspects an active token and answers {active:false} for anything invalid", async () => {
    const t = await token();
    const active = await form("/oauth2/introspect", { token: t }, basic());
    expect(active.statusCode).toBe(200);
    expect(active.json()).toMatchObject({
      active: true,
      client_id: OPERATOR.id,
      scope: "apps:read",
      token_type: "Bearer",
      iss: "http://gatehouse.test",
    });
    const garbage = await form("/oauth2/introspect", { token: "garbage" }, basic());
    expect(garbage.json()).toEqual({ active: false });
  });

  it("requires client authentication and a token parameter", async () => {
    expectOAuthError(await form("/oauth2/introspect", { token: "x" }), 401, "invalid_client");
    expectOAuthError(await form("/oauth2/introspect", {}, basic()), 400, "invalid_request");
    expectOAuthError(await form("/oauth2/revoke", { token: "x" }), 401, "invalid_client");
    expectOAuthError(await form("/oauth2/revoke", {}, basic()), 400, "invalid_request");
  });

  it("revokes (RFC 7009): 200, then inactive; unknown tokens also 200", async () => {
    const t = await token();
    const res = await form("/oauth2/revoke", { token: t, token_type_hint: "access_token" }, basic());
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.json()).toEqual({});
    expect((await form("/oauth2/introspect", { token: t }, basic())).json()).toEqual({ active: false });
    expect((await form("/oauth2/revoke", { token: "garbage" }, basic())).statusCode).toBe(200);
  });
});

describe("metadata", () => {
  it("publishes RFC 8414 and OpenID discovery documents", async () => {
    const m = (await s.app.inject({ method: "GET", url: "/.well-known/oauth-authorization-server" })).json();
    expect(m).toMatchObject({
      issuer: "http://gatehouse.test",
      token_endpoint: "http://gatehouse.test/oauth2/token",
      jwks_uri: "http://gatehouse.test/oauth2/jwks",
      introspection_endpoint: "http://gatehouse.test/oauth2/introspect",
      revocation_endpoint: "http://gatehouse.test/oauth2/revoke",
    });
    expect(m.grant_types_supported).toContain("client_credentials");
    expect(m.token_endpoint_auth_methods_supported).toEqual(["client_secret_basic", "client_secret_post", "none"]);
    expect(m.introspection_endpoint_auth_methods_supported).toEqual(["client_secret_basic", "client_secret_post"]);
    const o = (await s.app.inject({ method: "GET", url: "/.well-known/openid-configuration" })).json();
    expect(o.issuer).toBe("http://gatehouse.test");
    expect(o.subject_types_supported).toEqual(["public"]);
  });

  it("serves the OpenAPI 3.1 document and its docs page", async () => {
    const doc = (await s.app.inject({ method: "GET", url: "/openapi.json" })).json();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/v2/apps", "/oauth2/token", "/oauth2/introspect"]));
    const page = await s.app.inject({ method: "GET", url: "/docs/" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
  });
});
