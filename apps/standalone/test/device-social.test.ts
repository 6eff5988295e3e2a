import { startUpstreamIdp, type UpstreamIdp } from "@gatehouse/testing/upstream-idp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formOf } from "./oauth-flow.ts";
import { atProvider, CALLBACK, callback, hiddenOf, postForm, registerProvider } from "./social-flows.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { createApp, type FlowApp } from "./user-flows.ts";

// The device grant's person signs in with an upstream provider (contract
// section 13: every sign-in method of sections 8, 11 and 12 on the entry
// point's login page), against a REAL OpenID Connect provider, by HTTP.

const FORM = { "content-type": "application/x-www-form-urlencoded" };

describe.each([
  ["PostgreSQL + Redis", false],
  ["the embedded default", true],
])("device grant with social sign-in on %s", (_name, embedded) => {
  let s: TestStack;
  let idp: UpstreamIdp;
  let app: FlowApp;
  beforeAll(async () => {
    idp = await startUpstreamIdp([CALLBACK]);
    s = await startTestStack({ embedded });
    await registerProvider(s, idp, "up");
    app = await createApp(s, "tv", (b) => void (b.entrypoints[0].identityProviders = ["up"]));
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await idp?.close();
  });

  const post = (url: string, form: Record<string, string>, cookie = "") =>
    s.app.inject({ method: "POST", url, headers: { ...FORM, cookie }, payload: new URLSearchParams(form).toString() });
  const path = (location: unknown) => String(location).replace(/^https?:\/\/[^/]+/, "");

  it("a new user signs in on /device through the provider's button, approves, and the TV gets its tokens", async () => {
    const login = `tv${Date.now().toString(36)}`;
    idp.accounts.set(login, { email: `${login}@example.com`, email_verified: true, given_name: "Teo" });
    const d = (await post("/oauth2/device_authorization", { client_id: app.entrypoint, scope: "openid" })).json();

    const enter = await s.app.inject({ method: "GET", url: `/device?user_code=${d.user_code}` });
    const device = formOf(enter);
    const started = await post("/device", { form_token: device.token, user_code: d.user_code }, device.cookie);
    expect(started.statusCode).toBe(303);
    const loginPage = await s.app.inject({ method: "GET", url: path(started.headers.location) });
    expect(loginPage.body).toContain('name="idp" value="up"');
    const page = formOf(loginPage);
    const button = await postForm(s, page.cookie, { form_token: page.token, intent: "login", idp: "up" });
    expect(button.statusCode).toBe(303);
    const idpCookie = String(button.headers["set-cookie"]).split(";")[0];
    const back = await atProvider(String(button.headers.location), login);

    // The provider's return ends the hosted login at the device page's callback, with its code.
    const done = await callback(s, back, idpCookie, page.cookie);
    expect([done.statusCode, path(done.headers.location).split("?")[0]]).toEqual([303, "/device/callback"]);
    const decision = await s.app.inject({
      method: "GET",
      url: path(done.headers.location),
      headers: { cookie: device.cookie },
    });
    expect(decision.statusCode).toBe(200);
    const approved = await post("/device", { ...hiddenOf(decision.body), decision: "approve" }, device.cookie);
    expect(approved.statusCode).toBe(200);
    const tokens = await post("/oauth2/token", {
      grant_type: "urn:ietf:params:oauth:grant-type:device_code",
      device_code: d.device_code,
      client_id: app.entrypoint,
    });
    expect([tokens.statusCode, typeof tokens.json().id_token]).toEqual([200, "string"]);
  });
});
