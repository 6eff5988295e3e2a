import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmedUser, createOAuthApp, loginForCode, pkce, publicTokenRequest, validAuthorize } from "./oauth-flow.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { createApp, PASSWORD, type FlowApp, type LoggedUser } from "./user-flows.ts";

// Contract section 9: token, revocation, UserInfo, JWKS and discovery answer
// CORS for the exact origins of the application's redirect URIs; no other
// origin, and no other endpoint, gets an Access-Control-Allow-Origin.
const SPA = "https://spa.example.com";
const OTHER_SPA = "https://other.example.org";
const EVIL = "https://evil.example";

describe("CORS for relying parties in browsers", () => {
  let s: TestStack;
  let a: FlowApp;
  let b: FlowApp;
  let user: LoggedUser;
  beforeAll(async () => {
    s = await startTestStack();
    a = await createOAuthApp(s, [`${SPA}/callback`, "com.example.spa:/cb"], "spa");
    b = await createOAuthApp(s, [`${OTHER_SPA}/cb`], "other");
    user = await confirmedUser(s, a);
  });
  afterAll(() => s.close());

  const get = (url: string, origin: string, headers: Record<string, string> = {}) =>
    s.app.inject({ method: "GET", url, headers: { origin, ...headers } });
  const preflight = (url: string, origin: string, method = "POST", requested = "content-type") =>
    s.app.inject({
      method: "OPTIONS",
      url,
      headers: { origin, "access-control-request-method": method, "access-control-request-headers": requested },
    });
  const acao = (res: { headers: Record<string, unknown> }) => res.headers["access-control-allow-origin"];

  it("answers JWKS and both discovery documents for any application's origin, and no one else", async () => {
    for (const url of [
      "/oauth2/jwks",
      "/.well-known/openid-configuration",
      "/.well-known/oauth-authorization-server",
    ]) {
      for (const origin of [SPA, OTHER_SPA]) {
        const res = await get(url, origin);
        expect(res.statusCode).toBe(200);
        expect(acao(res)).toBe(origin);
        expect(String(res.headers.vary)).toMatch(/Origin/i);
        expect(res.headers["access-control-allow-credentials"]).toBeUndefined();
      }
      for (const origin of [EVIL, `${SPA}:8443`, "http://spa.example.com", "null"]) {
        const res = await get(url, origin);
        expect(res.statusCode).toBe(200);
        expect(acao(res)).toBeUndefined();
      }
    }
  });

  it("answers preflights of the relying parties' endpoints from registered origins only", async () => {
    for (const [url, method] of [
      ["/oauth2/token", "POST"],
      ["/oauth2/revoke", "POST"],
      ["/oauth2/userinfo", "GET"],
      ["/oauth2/jwks", "GET"],
    ] as const) {
      const ok = await preflight(url, SPA, method, "authorization, content-type");
      expect(ok.statusCode).toBe(204);
      expect(acao(ok)).toBe(SPA);
      expect(String(ok.headers["access-control-allow-methods"])).toContain(method);
      expect(String(ok.headers["access-control-allow-headers"]).toLowerCase()).toContain("authorization");
      expect(ok.headers["access-control-max-age"]).toBe("600");
      const no = await preflight(url, EVIL, method);
      expect(no.statusCode).toBe(204);
      expect(acao(no)).toBeUndefined();
      expect(no.headers["access-control-allow-methods"]).toBeUndefined();
    }
  });

  it("gives nothing to other endpoints, whatever the origin", async () => {
    for (const url of [
      "/oauth2/introspect",
      "/oauth2/authorize",
      "/oauth2/logout",
      "/v2/apps",
      "/activityid/v1/user/access",
    ]) {
      const res = await preflight(url, SPA);
      expect(acao(res)).toBeUndefined();
      expect(res.headers["access-control-allow-methods"]).toBeUndefined();
    }
    const introspect = await s.app.inject({
      method: "POST",
      url: "/oauth2/introspect",
      headers: { origin: SPA, "content-type": "application/x-www-form-urlencoded" },
      payload: "token=x",
    });
    expect(acao(introspect)).toBeUndefined();
    const apps = await s.app.inject({ method: "GET", url: `/v2/apps/${a.id}`, headers: { origin: SPA } });
    expect(acao(apps)).toBeUndefined();
  });

  it("answers the token endpoint for the origins of the requesting client's application only", async () => {
    const { verifier, challenge } = pkce();
    const params = validAuthorize(a, challenge, { client_id: a.entrypoint, redirect_uri: `${SPA}/callback` });
    const { query } = await loginForCode(s, params, user.email, PASSWORD);
    const form = {
      grant_type: "authorization_code",
      code: query.get("code")!,
      redirect_uri: `${SPA}/callback`,
      code_verifier: verifier,
    };
    // Another application's origin may not read this client's answer (the request still runs).
    const foreign = await publicTokenRequest(s, a.entrypoint, { ...form, code: "not-a-code" }, { origin: OTHER_SPA });
    expect(foreign.statusCode).toBe(400);
    expect(acao(foreign)).toBeUndefined();
    const res = await publicTokenRequest(s, a.entrypoint, form, { origin: SPA });
    expect(res.statusCode).toBe(200);
    expect(acao(res)).toBe(SPA);
    const t = res.json();

    // UserInfo: the token's application's origins.
    const info = await get("/oauth2/userinfo", SPA, { authorization: `Bearer ${t.access_token}` });
    expect(info.statusCode).toBe(200);
    expect(acao(info)).toBe(SPA);
    expect(
      acao(await get("/oauth2/userinfo", OTHER_SPA, { authorization: `Bearer ${t.access_token}` })),
    ).toBeUndefined();
    // A 401 stays readable by a relying party's page (the challenge is exposed).
    const denied = await get("/oauth2/userinfo", SPA, { authorization: "Bearer garbage" });
    expect(denied.statusCode).toBe(401);
    expect(acao(denied)).toBe(SPA);
    expect(String(denied.headers["access-control-expose-headers"]).toLowerCase()).toContain("www-authenticate");

    const revoked = await s.app.inject({
      method: "POST",
      url: "/oauth2/revoke",
      headers: { origin: SPA, "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ client_id: a.entrypoint, token: t.refresh_token }).toString(),
    });
    expect(revoked.statusCode).toBe(200);
    expect(acao(revoked)).toBe(SPA);
  });

  it("knows a new application's origins at once (the registry's notice), everywhere", async () => {
    const fresh = "https://brand-new.example.net";
    expect(acao(await get("/oauth2/jwks", fresh))).toBeUndefined();
    await createApp(s, "fresh", (body) => void (body.redirectUris = [`${fresh}/cb`]));
    expect(acao(await get("/oauth2/jwks", fresh))).toBe(fresh);
  });

  it("does not let one application's client speak for another's origin", async () => {
    const res = await publicTokenRequest(
      s,
      b.entrypoint,
      { grant_type: "refresh_token", refresh_token: "x" },
      { origin: SPA },
    );
    expect(res.statusCode).toBe(400);
    expect(acao(res)).toBeUndefined();
    const own = await publicTokenRequest(
      s,
      b.entrypoint,
      { grant_type: "refresh_token", refresh_token: "x" },
      { origin: OTHER_SPA },
    );
    expect(acao(own)).toBe(OTHER_SPA);
  });
});
