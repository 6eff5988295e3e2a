import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, validApplication, type TestStack } from "./stack-helpers.ts";
import { createApp, loggedUser, loginEnvelope, send, SOURCE, type FlowApp, type LoggedUser } from "./user-flows.ts";

// Contract section 9 (RFC 6750 section 3): every 401/403 of a bearer-protected
// endpoint carries WWW-Authenticate: Bearer, and is decided before the body
// is looked at: no token and a bad body is a 401, not a 400.
describe("bearer challenges", () => {
  let s: TestStack;
  let app: FlowApp;
  let user: LoggedUser;
  let other: LoggedUser;
  let operator: string;
  beforeAll(async () => {
    s = await startTestStack();
    app = await createApp(s);
    user = await loggedUser(s, app);
    other = await loggedUser(s, app);
    operator = await s.operatorToken();
  });
  afterAll(() => s.close());

  const request = (
    method: "GET" | "POST" | "PATCH",
    url: string,
    token: string | undefined,
    payload = "{not json",
    type = "application/json",
  ) =>
    s.app.inject({
      method,
      url,
      headers: {
        "content-type": type,
        accept: "application/json",
        from: app.entrypoint,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(method === "GET" ? {} : { payload }),
    });
  const challenge = (res: { headers: Record<string, unknown> }) => String(res.headers["www-authenticate"] ?? "");

  const protectedRoutes: [string, "GET" | "POST" | "PATCH", () => string][] = [
    ["apps", "POST", () => "/v2/apps"],
    ["app", "GET", () => `/v2/apps/${app.id}`],
    ["admin settings", "PATCH", () => `/admin/v1/apps/${app.id}`],
    ["admin password", "GET", () => `/admin/v1/apps/${app.id}/password`],
    ["admin assertions", "POST", () => "/admin/v1/assertions"],
    ["register", "POST", () => "/activityid/v1/user/register"],
    ["login", "POST", () => "/activityid/v1/user/access"],
    ["login mfa", "POST", () => "/activityid/v1/user/access/mfa"],
    ["login code", "POST", () => "/activityid/v1/user/access/code"],
    ["replace", "POST", () => "/activityid/v1/user/update"],
    ["patch", "PATCH", () => `/activityid/v1/user/update/${user.id}`],
    ["patch by pulse id", "PATCH", () => `/activityid/v1/user/update/pulse-id/${user.pulseId}`],
    ["confirm by code", "POST", () => "/activityid/v1/user/confirm"],
    ["logout", "POST", () => "/activityid/v1/user/logout"],
    ["totp", "POST", () => "/activityid/v1/user/mfa/totp"],
    ["totp confirm", "POST", () => "/activityid/v1/user/mfa/totp/confirm"],
    ["totp disable", "POST", () => "/activityid/v1/user/mfa/totp/disable"],
    ["passkey sign-in options", "POST", () => "/activityid/v1/user/access/passkey"],
    ["passkey options", "POST", () => "/activityid/v1/user/passkeys/options"],
    ["passkey enrol", "POST", () => "/activityid/v1/user/passkeys"],
    ["passkeys", "GET", () => "/activityid/v1/user/passkeys"],
    ["passkey rename", "PATCH", () => "/activityid/v1/user/passkeys/0123456789abcdef01234567"],
  ];

  it.each(protectedRoutes)(
    "%s: no token, or a bad one, is 401 invalid_token before the body is parsed",
    async (_name, method, path) => {
      for (const token of [undefined, "garbage", `${user.accessToken}x`]) {
        const res = await request(method, path(), token);
        expect(res.statusCode).toBe(401);
        expect(res.json()).toMatchObject({ result: { status: 401 }, errors: { code: "unauthenticated" } });
        expect(challenge(res)).toMatch(/^Bearer realm="gatehouse", error="invalid_token"/);
      }
    },
  );

  it("a token without the scope is 403 insufficient_scope naming the scope, before the body", async () => {
    const cases: [string, "GET" | "POST" | "PATCH", string, string][] = [
      [app.token, "POST", "/v2/apps", "apps:write"],
      [user.accessToken, "GET", `/v2/apps/${app.id}`, "apps:read apps:write"],
      // Admin routes: admin:read for GET, admin:write otherwise, `admin` either way.
      [app.token, "PATCH", `/admin/v1/apps/${app.id}`, "admin:write admin"],
      [await s.operatorToken("apps:write"), "POST", "/admin/v1/assertions", "admin:write admin"],
      [await s.operatorToken("admin:read"), "POST", `/admin/v1/users/${user.id}/lock`, "admin:write admin"],
      [await s.operatorToken("apps:write"), "GET", "/admin/v1/users", "admin:read admin"],
    ];
    for (const [token, method, path, scope] of cases) {
      const res = await request(method, path, token);
      expect(res.statusCode).toBe(403);
      expect(res.json().errors.code).toBe("insufficient_scope");
      expect(challenge(res)).toMatch(
        new RegExp(
          `^Bearer realm="gatehouse", error="insufficient_scope", error_description="[^"]+", scope="${scope}"$`,
        ),
      );
    }
    // With the scope, the body is checked: 400.
    expect((await request("POST", "/v2/apps", operator)).statusCode).toBe(400);
    const invalid = await request(
      "POST",
      "/v2/apps",
      operator,
      JSON.stringify({ ...validApplication(), redirectUris: [] }),
    );
    expect(invalid.statusCode).toBe(400);
    expect(challenge(invalid)).toBe("");
  });

  it("the wrong kind of token is an invalid token for the route (401)", async () => {
    // An APP_TOKEN where the user's token is needed, and the other way round.
    expect(challenge(await request("POST", "/activityid/v1/user/update", app.token))).toMatch(/error="invalid_token"/);
    expect(challenge(await request("POST", "/activityid/v1/user/access", user.accessToken))).toMatch(
      /error="invalid_token"/,
    );
    expect(challenge(await request("POST", "/activityid/v1/user/access", operator))).toMatch(/error="invalid_token"/);
    expect(challenge(await request("POST", "/activityid/v1/user/access/code", user.accessToken))).toMatch(
      /error="invalid_token"/,
    );
    expect(challenge(await request("POST", "/activityid/v1/user/access/code", operator))).toMatch(
      /error="invalid_token"/,
    );
  });

  // Contract section 9: every 401/403 names error="invalid_token" or "insufficient_scope"; a refusal
  // of a valid token's request is the latter (the token does not reach what was asked), never a bare challenge.
  it("other 403s of a protected route (the token is fine, the request is refused) carry insufficient_scope", async () => {
    const body = {
      actor: { id: String(other.id), objectType: "person" },
      verb: "update",
      object: { objectType: "user", password: "x".repeat(12), datas: {} },
      source: SOURCE,
    };
    const res = await send(
      s,
      "PATCH",
      `/activityid/v1/user/update/${other.id}`,
      user.accessToken,
      app.entrypoint,
      body,
    );
    expect(res.statusCode).toBe(403);
    expect(challenge(res)).toMatch(/^Bearer realm="gatehouse", error="insufficient_scope"/);
    // The login's 403 (wrong password) with a valid APP_TOKEN too.
    const login = await send(
      s,
      "POST",
      "/activityid/v1/user/access",
      app.token,
      app.entrypoint,
      loginEnvelope(app, user.email, "wrong password 123"),
    );
    expect(login.statusCode).toBe(403);
    expect(challenge(login)).toMatch(/^Bearer realm="gatehouse", error="insufficient_scope"/);
  });

  it("UserInfo: 401 invalid_token without or with a bad token, 403 insufficient_scope without openid", async () => {
    const none = await s.app.inject({ method: "GET", url: "/oauth2/userinfo" });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ error: "invalid_token" });
    expect(challenge(none)).toMatch(/^Bearer realm="gatehouse", error="invalid_token"/);
    const app401 = await s.app.inject({
      method: "GET",
      url: "/oauth2/userinfo",
      headers: { authorization: `Bearer ${app.token}` },
    });
    expect(app401.statusCode).toBe(401);
    // A login session's token has no openid scope.
    const noOpenid = await s.app.inject({
      method: "POST",
      url: "/oauth2/userinfo",
      headers: { authorization: `Bearer ${user.accessToken}` },
    });
    expect(noOpenid.statusCode).toBe(403);
    expect(noOpenid.json()).toMatchObject({ error: "insufficient_scope" });
    expect(challenge(noOpenid)).toMatch(/error="insufficient_scope".*scope="openid"/);
  });
});
