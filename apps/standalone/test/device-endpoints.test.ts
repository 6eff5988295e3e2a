import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSOLE_CLIENT_ID } from "@gatehouse/rpc";
import { createOAuthApp } from "./oauth-flow.ts";
import { OPERATOR, startTestStack, type TestStack } from "./stack-helpers.ts";
import type { FlowApp } from "./user-flows.ts";

// The device authorization endpoint's and the /device page's error cases
// (app.inject), on both stores.

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

describe.each([
  ["PostgreSQL + Redis", false],
  ["embedded", true],
])("device endpoints on %s", (_name, embedded) => {
  let s: TestStack;
  let app: FlowApp;
  beforeAll(async () => {
    s = await startTestStack({ embedded, env: { DEVICE_CODE_FAILURES_PER_ADDRESS: "3" } });
    app = await createOAuthApp(s);
  }, 120_000);
  afterAll(async () => s?.close());

  const authorize = (form: Record<string, string>, headers: Record<string, string> = {}) =>
    s.app.inject({
      method: "POST",
      url: "/oauth2/device_authorization",
      headers: { ...FORM, ...headers },
      payload: new URLSearchParams(form).toString(),
    });

  it("issues codes to an application's client (its entry point chosen by key), never cached", async () => {
    const res = await authorize(
      { scope: "openid", entrypoint: "web" },
      { authorization: s.basic(app.id, app.password) },
    );
    expect([res.statusCode, res.body]).toEqual([200, expect.anything()]);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(Object.keys(res.json()).sort()).toEqual(
      ["device_code", "expires_in", "interval", "user_code", "verification_uri", "verification_uri_complete"].sort(),
    );
  });

  it("answers RFC 6749 errors for bad clients and requests", async () => {
    const err = async (form: Record<string, string>, headers: Record<string, string> = {}) => {
      const r = await authorize(form, headers);
      return [r.statusCode, r.json().error];
    };
    expect(await err({})).toEqual([401, "invalid_client"]);
    expect(await err({ client_id: "nobody_web" })).toEqual([401, "invalid_client"]);
    expect(await err({}, { authorization: s.basic(OPERATOR.id, OPERATOR.secret) })).toEqual([
      400,
      "unauthorized_client",
    ]);
    expect(await err({ client_id: CONSOLE_CLIENT_ID })).toEqual([400, "unauthorized_client"]);
    expect(await err({ client_id: app.entrypoint, scope: "admin" })).toEqual([400, "invalid_scope"]);
    expect(await err({ client_id: app.entrypoint, entrypoint: "other" })).toEqual([400, "invalid_request"]);
    expect(await err({ client_id: app.entrypoint, source_id: "no spaces" })).toEqual([400, "invalid_request"]);
    const json = await s.app.inject({
      method: "POST",
      url: "/oauth2/device_authorization",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ client_id: app.entrypoint }),
    });
    expect([json.statusCode, json.json().error]).toEqual([400, "invalid_request"]);
    const get = await s.app.inject({ method: "GET", url: "/oauth2/device_authorization" });
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toContain("POST");
  });

  it("the token endpoint's device grant: a missing code is invalid_request, an unknown one invalid_grant", async () => {
    const token = (form: Record<string, string>) =>
      s.app.inject({
        method: "POST",
        url: "/oauth2/token",
        headers: FORM,
        payload: new URLSearchParams(form).toString(),
      });
    const missing = await token({ grant_type: DEVICE_GRANT, client_id: app.entrypoint });
    expect(missing.json().error).toBe("invalid_request");
    const unknown = await token({ grant_type: DEVICE_GRANT, client_id: app.entrypoint, device_code: "nope" });
    expect([unknown.statusCode, unknown.json().error]).toEqual([400, "invalid_grant"]);
  });

  it("/device: a protected page; forged or cross-site forms, wrong codes (limited per address), forged callbacks", async () => {
    const page = await s.app.inject({ method: "GET", url: "/device?user_code=BCDF-GHJK" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(page.body).toContain('value="BCDF-GHJK"');
    const cookie = String(page.headers["set-cookie"]).split(";")[0]!;
    expect(String(page.headers["set-cookie"])).toContain("Path=/device");
    const token = /name="form_token" value="([^"]+)"/.exec(page.body)![1]!;
    const submit = (form: Record<string, string>, headers: Record<string, string> = { cookie }) =>
      s.app.inject({
        method: "POST",
        url: "/device",
        headers: { ...FORM, ...headers },
        payload: new URLSearchParams(form).toString(),
      });

    expect((await submit({ form_token: token, user_code: "BCDF-GHJK" }, {})).statusCode).toBe(400); // no cookie
    expect((await submit({ form_token: "forged", user_code: "BCDF-GHJK" })).statusCode).toBe(400);
    const crossSite = await submit({ form_token: token, user_code: "x" }, { cookie, "sec-fetch-site": "cross-site" });
    expect(crossSite.statusCode).toBe(403);
    const wrong = await submit({ form_token: token, user_code: "bcdf ghjk" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('role="alert"');
    await submit({ form_token: token, user_code: "ZZZZ-ZZZZ" });
    await submit({ form_token: token, user_code: "nonsense" });
    const limited = await submit({ form_token: token, user_code: "BCDF-GHJK" });
    expect(limited.statusCode).toBe(429);

    const forged = await s.app.inject({
      method: "GET",
      url: "/device/callback?code=x&state=forged",
      headers: { cookie },
    });
    expect(forged.statusCode).toBe(400);
    // Pages (like the terms page), not OAuth endpoints: another method is the envelope's error.
    const del = await s.app.inject({ method: "DELETE", url: "/device" });
    expect([del.statusCode, del.json().errors.code]).toEqual([404, "route_not_found"]);
  });
});
