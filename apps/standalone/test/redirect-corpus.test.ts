import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  authorizePath,
  confirmedUser,
  createOAuthApp,
  exchange,
  loginForCode,
  LOOPBACK,
  pkce,
  REDIRECT,
  validAuthorize,
} from "./oauth-flow.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { PASSWORD, type FlowApp, type LoggedUser } from "./user-flows.ts";

// Malicious redirect URIs and broken PKCE against the authorization endpoint
// and the code grant, on PostgreSQL + Redis. The application registered
// https://shop.example.com/callback and the loopback http://127.0.0.1/callback.

const MALICIOUS_REDIRECTS = [
  // case changes
  "https://SHOP.example.com/callback",
  "HTTPS://shop.example.com/callback",
  "https://shop.example.com/Callback",
  // extra path, query, fragment
  "https://shop.example.com/callback/",
  "https://shop.example.com/callback/extra",
  "https://shop.example.com/callbackx",
  "https://shop.example.com/callback?next=https://evil.example",
  "https://shop.example.com/callback?",
  "https://shop.example.com/callback#",
  "https://shop.example.com/callback#frag",
  // @ and userinfo tricks
  "https://shop.example.com@evil.example/callback",
  "https://evil.example@shop.example.com/callback",
  "https://shop.example.com%40evil.example/callback",
  "https://shop.example.com\\@evil.example/callback",
  // path traversal and encodings
  "https://shop.example.com/callback/..;/evil",
  "https://shop.example.com/..;/callback",
  "https://shop.example.com/evil/../callback",
  "https://shop.example.com/%2e%2e/callback",
  "https://shop.example.com/call%62ack",
  "https://shop.example.com/callback%2F..%2Fevil",
  // encoded and literal whitespace and controls
  "https://shop.example.com/callback%09",
  "https://shop.example.com/callback\t",
  "https://shop.example.com/call\tback",
  "https://shop.example.com/callback\n",
  "https://shop.example.com/callback%0d%0aLocation:%20https://evil.example",
  "https://shop.example.com/callback%00",
  " https://shop.example.com/callback",
  "https://shop.example.com/callback ",
  // other schemes and scheme tricks
  "javascript:alert(1)",
  "javascript://shop.example.com/callback%0aalert(1)",
  "JavaScript:alert(document.domain)//https://shop.example.com/callback",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "http://shop.example.com/callback",
  "//shop.example.com/callback",
  "https:/shop.example.com/callback",
  "https:shop.example.com/callback",
  // hosts that only look alike
  "https://shop.example.com.evil.example/callback",
  "https://evilshop.example.com/callback",
  "https://shop.example.co/callback",
  "https://shop.example.com./callback",
  "https://shop.example.com:443/callback",
  "https://shop.example.com:8443/callback",
  "https://xn--shp-qla.example.com/callback",
  // loopback look-alikes (the port rule covers the port of an exact loopback URI only)
  "http://127.0.0.1.evil.example/callback",
  "http://127.0.0.1:8080@evil.example/callback",
  "http://localhost:8080/callback",
  "https://127.0.0.1:8080/callback",
  "http://[::1]:8080/callback",
  "http://127.1:8080/callback",
  "http://2130706433:8080/callback",
  "http://127.0.0.1:8080/Callback",
  "http://127.0.0.1:8080/callback/",
  "http://127.0.0.1:8080/callback?x=1",
  "http://127.0.0.1:8080/callback#x",
  "http://127.0.0.1:8080/callback/..;/x",
  "http://127.0.0.1:0/callback",
  "http://127.0.0.1:99999/callback",
  "http://127.0.0.1:08080/callback",
];

describe("redirect URI and PKCE corpora on PostgreSQL + Redis", () => {
  let s: TestStack;
  let app: FlowApp;
  let user: LoggedUser;
  beforeAll(async () => {
    s = await startTestStack();
    app = await createOAuthApp(s);
    user = await confirmedUser(s, app);
  });
  afterAll(() => s.close());

  const get = (params: Record<string, string | undefined>) =>
    s.app.inject({ method: "GET", url: authorizePath({ client_id: app.id, ...params }) });
  const { challenge } = pkce();

  it.each(MALICIOUS_REDIRECTS)("refuses %j with an error page and no redirect (GET and POST)", async (redirectUri) => {
    const params = validAuthorize(app, challenge, { redirect_uri: redirectUri });
    const viaGet = await get(params);
    const viaPost = await s.app.inject({
      method: "POST",
      url: "/oauth2/authorize",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams(params as Record<string, string>).toString(),
    });
    for (const res of [viaGet, viaPost]) {
      expect(res.statusCode).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
      expect(res.body).not.toContain('name="password"');
    }
  });

  it("accepts the exact registered URIs, and any port for the registered loopback URI", async () => {
    for (const redirectUri of [
      REDIRECT,
      LOOPBACK,
      "http://127.0.0.1:8080/callback",
      "http://127.0.0.1:65535/callback",
    ]) {
      const res = await get(validAuthorize(app, challenge, { redirect_uri: redirectUri }));
      expect(res.statusCode, redirectUri).toBe(200);
      expect(res.body).toContain('name="password"');
    }
  });

  it("shows a page, never a redirect, while the client or its redirect URI is not established", async () => {
    const base = validAuthorize(app, challenge);
    const cases = [
      { ...base, client_id: "" },
      { ...base, client_id: "999999999999" },
      { ...base, client_id: "test-operator" },
      { ...base, redirect_uri: undefined },
    ];
    for (const params of cases) {
      const res = await get(params);
      expect(res.statusCode).toBe(400);
      expect(res.headers.location).toBeUndefined();
    }
    const twice = await s.app.inject({
      method: "GET",
      url: `${authorizePath(base)}&redirect_uri=${encodeURIComponent(REDIRECT)}`,
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.headers.location).toBeUndefined();
  });

  const redirectError = async (params: Record<string, string | undefined>) => {
    const res = await get(params);
    expect(res.statusCode).toBe(302);
    const location = new URL(String(res.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get("state")).toBe(params.state ?? null);
    return location.searchParams.get("error");
  };

  it("redirects the PKCE corpus back with error and state: missing challenge, plain, missing method, malformed, verifier in the front channel", async () => {
    const base = validAuthorize(app, challenge);
    expect(await redirectError({ ...base, code_challenge: undefined, code_challenge_method: undefined })).toBe(
      "invalid_request",
    );
    expect(await redirectError({ ...base, code_challenge: undefined })).toBe("invalid_request");
    expect(await redirectError({ ...base, code_challenge_method: "plain" })).toBe("invalid_request");
    expect(await redirectError({ ...base, code_challenge_method: "plain", code_challenge: pkce().verifier })).toBe(
      "invalid_request",
    );
    expect(await redirectError({ ...base, code_challenge_method: undefined })).toBe("invalid_request");
    expect(await redirectError({ ...base, code_challenge_method: "s256" })).toBe("invalid_request");
    expect(await redirectError({ ...base, code_challenge: `${challenge}A` })).toBe("invalid_request");
    expect(await redirectError({ ...base, code_challenge: undefined, code_verifier: pkce().verifier })).toBe(
      "invalid_request",
    );
  });

  it("redirects the other request errors back with error and state", async () => {
    const base = validAuthorize(app, challenge);
    expect(await redirectError({ ...base, response_type: undefined })).toBe("invalid_request");
    expect(await redirectError({ ...base, response_type: "token" })).toBe("unsupported_response_type");
    expect(await redirectError({ ...base, scope: "openid apps:write" })).toBe("invalid_scope");
    expect(await redirectError({ ...base, prompt: "none" })).toBe("login_required");
    expect(await redirectError({ ...base, entrypoint: "999_other" })).toBe("invalid_request");
    expect(await redirectError({ ...base, response_mode: "fragment" })).toBe("invalid_request");
    expect(await redirectError({ ...base, request: "eyJhbGciOiJub25lIn0.e30." })).toBe("request_not_supported");
  });

  it("refuses a wrong or missing verifier at the token endpoint, and a spent code afterwards", async () => {
    for (const verifier of [pkce().verifier, undefined]) {
      const { query } = await loginForCode(s, validAuthorize(app, challenge), user.email, PASSWORD);
      const form: Record<string, string> = { code: query.get("code")! };
      if (verifier) form.code_verifier = verifier;
      const res = await exchange(s, app, form);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe("invalid_grant");
    }
  });

  it("refuses a replayed code and revokes the tokens issued from it", async () => {
    const p = pkce();
    const { query } = await loginForCode(s, validAuthorize(app, p.challenge), user.email, PASSWORD);
    const first = await exchange(s, app, { code: query.get("code")!, code_verifier: p.verifier });
    expect(first.statusCode).toBe(200);
    const t = first.json();
    const replay = await exchange(s, app, { code: query.get("code")!, code_verifier: p.verifier });
    expect(replay.json().error).toBe("invalid_grant");
    const introspect = await s.app.inject({
      method: "POST",
      url: "/oauth2/introspect",
      headers: { authorization: s.basic(app.id, app.password), "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ token: t.access_token }).toString(),
    });
    expect(introspect.json()).toEqual({ active: false });
    expect((await exchange(s, app, { grant_type: "refresh_token", refresh_token: t.refresh_token })).json().error).toBe(
      "invalid_grant",
    );
  });
});
