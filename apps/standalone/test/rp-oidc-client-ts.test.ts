import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmedUser } from "./oauth-flow.ts";
import { listeningStack } from "./rp-helpers.ts";
import type { TestStack } from "./stack-helpers.ts";
import { createApp, PASSWORD, type FlowApp, type LoggedUser } from "./user-flows.ts";

// oidc-client-ts 3.5 (its browser build, unmodified) in headless Chromium,
// served from another origin than Gatehouse: a SPA signing in as a public
// client (its entry point id) with UserManager configured from discovery
// only. Sign-in by redirect (code + PKCE), UserInfo, refresh with rotation,
// renewal by iframe (login_required), revocation and RP-initiated logout,
// all through the library's own calls. Any console error fails it (CORS).
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const LIBRARY = readFileSync(
  fileURLToPath(new URL("../../../node_modules/oidc-client-ts/dist/browser/oidc-client-ts.min.js", import.meta.url)),
);

/** Every path but the library is the SPA's one page; window.mgr is its UserManager. */
function spaPage(issuer: string, clientId: string): string {
  const settings = `{
    authority: ${JSON.stringify(issuer)}, client_id: ${JSON.stringify(clientId)},
    redirect_uri: location.origin + "/callback", post_logout_redirect_uri: location.origin + "/signed-out",
    response_type: "code", scope: "openid profile email offline_access", loadUserInfo: true,
    silent_redirect_uri: location.origin + "/callback", silentRequestTimeoutInSeconds: 5,
  }`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>oidc-client-ts SPA</title>
<link rel="icon" href="data:,"><script src="/oidc-client-ts.js"></script></head><body><h1>oidc-client-ts SPA</h1>
<script>oidc.Log.setLogger(console); oidc.Log.setLevel(oidc.Log.WARN); window.mgr = new oidc.UserManager(${settings});
if (window.parent !== window) mgr.signinSilentCallback();</script></body></html>`;
}

async function spaServer(html: () => string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    if (req.url === "/oidc-client-ts.js") return res.writeHead(200, { "content-type": "text/javascript" }).end(LIBRARY);
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

/** The fields of a User the test reads (a User is not serializable as is). */
const USER_FIELDS = `(u) => u && ({ access_token: u.access_token, id_token: u.id_token, refresh_token: u.refresh_token,
  token_type: u.token_type, scope: u.scope, expires_in: u.expires_in, profile: u.profile })`;
const userOf = (page: Page, call: string) =>
  page.evaluate(`${call}.then(${USER_FIELDS})`) as Promise<Record<string, any> | null>;

describe("oidc-client-ts 3.5 in headless Chromium (SPA, public client)", () => {
  let s: TestStack;
  let base: string;
  let app: FlowApp;
  let user: LoggedUser;
  let browser: Browser;
  let spa: { server: Server; origin: string };

  beforeAll(async () => {
    ({ s, base } = await listeningStack());
    spa = await spaServer(() => spaPage(base, app.entrypoint));
    // post_logout_redirect_uri must be one of the redirect URIs: both are registered.
    app = await createApp(
      s,
      "oidcspa",
      (body) => void (body.redirectUris = [`${spa.origin}/callback`, `${spa.origin}/signed-out`]),
    );
    user = await confirmedUser(s, app);
    browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => spa?.server.close(r));
    await s?.close();
  });

  it("signs in by redirect, loads UserInfo, refreshes with rotation, gets login_required by iframe, revokes and logs out", async () => {
    const context = await browser.newContext({ locale: "en-US" });
    const page = await context.newPage();
    const problems: string[] = [];
    // Any error or warning fails the test: a CORS refusal is a console error, and so
    // would be a 404 of the hosted pages' icon (Gatehouse serves /favicon.svg).
    page.on(
      "console",
      (m) =>
        void (
          ["error", "warning"].includes(m.type()) &&
          problems.push(`console ${m.type()}: ${m.text()} at ${m.location().url}`)
        ),
    );
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("requestfailed", (r) => problems.push(`${r.method()} ${r.url()} ${r.failure()?.errorText}`));
    const calls: string[] = [];
    page.on(
      "response",
      (r) =>
        void (
          new URL(r.url()).origin === base &&
          calls.push(`${r.request().method()} ${new URL(r.url()).pathname} ${r.status()}`)
        ),
    );

    // 1. signinRedirect → the hosted login → the callback → signinRedirectCallback.
    await page.goto(`${spa.origin}/`);
    await Promise.all([
      page.waitForURL((u) => u.pathname === "/oauth2/authorize"),
      page.evaluate("void mgr.signinRedirect()"),
    ]);
    const authorize = new URL(page.url());
    expect(authorize.origin).toBe(base);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("client_id")).toBe(app.entrypoint);
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(PASSWORD);
    await Promise.all([
      page.waitForURL((u) => u.pathname === "/callback"),
      page.getByRole("button", { name: "Sign in", exact: true }).click(),
    ]);
    expect(new URL(page.url()).searchParams.get("iss")).toBe(base);
    const signedIn = (await userOf(page, "mgr.signinRedirectCallback()"))!;
    expect(signedIn).toMatchObject({ token_type: "Bearer", scope: "openid profile email offline_access" });
    for (const t of ["access_token", "id_token", "refresh_token"]) expect(signedIn[t]).toEqual(expect.any(String));
    expect(signedIn.expires_in).toBeGreaterThan(3500);
    // 2. The profile: the ID token's claims merged with UserInfo (loadUserInfo).
    expect(signedIn.profile).toMatchObject({
      sub: String(user.id),
      iss: base,
      aud: app.entrypoint,
      email: user.email,
      email_verified: true,
      name: "Ana",
    });
    expect(await userOf(page, "mgr.getUser()")).toEqual(signedIn);
    expect(calls).toContain("GET /oauth2/userinfo 200");

    // 3. signinSilent uses the refresh token: new tokens, the refresh token rotated.
    const renewed = (await userOf(page, "mgr.signinSilent()"))!;
    expect(renewed.access_token).not.toBe(signedIn.access_token);
    expect(renewed.refresh_token).toEqual(expect.any(String));
    expect(renewed.refresh_token).not.toBe(signedIn.refresh_token);
    expect(renewed.profile).toMatchObject({ sub: String(user.id), email: user.email });
    expect(calls.filter((c) => c.startsWith("POST /oauth2/token"))).toEqual([
      "POST /oauth2/token 200",
      "POST /oauth2/token 200",
    ]);

    // Renewal in a hidden iframe (prompt=none) comes back with login_required: no SSO session.
    expect(
      await page.evaluate(
        "mgr.signinSilent({ forceIframeAuth: true }).then(() => 'signed in', (e) => e.error ?? e.message)",
      ),
    ).toBe("login_required");
    const warned = problems.findIndex((p) =>
      p.startsWith("console warning: [ResponseValidator] _processSigninState: Response was error login_required"),
    );
    expect(warned).toBeGreaterThanOrEqual(0);
    problems.splice(warned, 1); // the library's own warning about that answer

    // 4. revokeTokens (access and refresh token), then signoutRedirect → back at the SPA.
    await page.evaluate("mgr.revokeTokens()");
    expect(calls.filter((c) => c.startsWith("POST /oauth2/revoke"))).toEqual([
      "POST /oauth2/revoke 200",
      "POST /oauth2/revoke 200",
    ]);
    const logout = page.waitForRequest((r) => new URL(r.url()).pathname === "/oauth2/logout");
    await Promise.all([
      page.waitForURL((u) => u.origin === spa.origin && u.pathname === "/signed-out"),
      page.evaluate(`void mgr.signoutRedirect({ state: { back: "/" } })`),
    ]);
    const sent = new URL((await logout).url());
    expect(sent.searchParams.get("id_token_hint")).toBe(renewed.id_token);
    expect(sent.searchParams.get("post_logout_redirect_uri")).toBe(`${spa.origin}/signed-out`);
    // Gatehouse echoes state; the library finds its stored request by it and returns the data.
    expect(new URL(page.url()).searchParams.get("state")).toBe(sent.searchParams.get("state"));
    expect(
      await page.evaluate(
        "mgr.signoutRedirectCallback().then((r) => ({ error: r.error ?? null, userState: r.userState }))",
      ),
    ).toEqual({ error: null, userState: { back: "/" } });
    expect(await page.evaluate("mgr.getUser()")).toBeNull();

    // The last refresh token (revoked) no longer works, seen from Node.
    const refresh = await fetch(`${base}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        client_id: app.entrypoint,
        refresh_token: renewed.refresh_token,
      }),
    });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ error: "invalid_grant" });
    // So does the revoked access token.
    const userinfo = await fetch(`${base}/oauth2/userinfo`, {
      headers: { authorization: `Bearer ${renewed.access_token}` },
    });
    expect(userinfo.status).toBe(401);
    expect(userinfo.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(problems).toEqual([]);
    await context.close();
  });
});
