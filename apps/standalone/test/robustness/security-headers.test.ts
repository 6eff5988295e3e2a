import { createServer, type Server } from "node:http";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  authorizePath,
  confirmedUser,
  createOAuthApp,
  formOf,
  pkce,
  postLogin,
  validAuthorize,
} from "../oauth-flow.ts";
import { freePort } from "../processes.ts";
import { startTestStack, type TestStack } from "../stack-helpers.ts";
import { PASSWORD, type FlowApp, type LoggedUser } from "../user-flows.ts";

// Issue 15 finding 9: every HTML page carries CSP (frame-ancestors 'none'),
// X-Frame-Options and nosniff; /docs keeps working under its own CSP (checked
// in Chromium); the hosted login refuses a cross-site form POST even with a
// valid cookie and form token, and keeps working without JavaScript.

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function expectPageHeaders(res: { headers: Record<string, unknown> }) {
  const csp = String(res.headers["content-security-policy"]);
  expect(csp).toMatch(/frame-ancestors 'none'/);
  expect(csp).toMatch(/default-src 'none'/);
  expect(res.headers["x-frame-options"]).toBe("DENY");
  expect(res.headers["x-content-type-options"]).toBe("nosniff");
}

describe("security headers and the hosted login's origin check", () => {
  let s: TestStack;
  let base: string;
  let app: FlowApp;
  let user: LoggedUser;
  let browser: Browser;
  let other: Server;
  let otherBase: string;
  let attackerPage = "";

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    s = await startTestStack({ embedded: true, env: { PUBLIC_URL: base, PORT: String(port), HOST: "127.0.0.1" } });
    await s.app.listen({ port, host: "127.0.0.1" });
    app = await createOAuthApp(s);
    user = await confirmedUser(s, app);
    // Another site on the same host (another port: same site, another origin): the attacker's and the application's.
    other = createServer((req, res) =>
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(req.url === "/attack" ? attackerPage : "<p>application</p>"),
    );
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    otherBase = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
    browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => other?.close(r));
    await s?.close();
  });

  it("sends CSP, X-Frame-Options and nosniff on every HTML page", async () => {
    const pages = [
      "/activityid/v1/user/confirm?token=nope",
      "/activityid/v1/user/confirm/resend?token=nope",
      "/activityid/v1/user/confirmed",
      "/activityid/v1/user/terms?token=nope",
      authorizePath(validAuthorize(app, pkce().challenge)),
      "/oauth2/authorize",
      "/oauth2/logout",
    ];
    for (const url of pages) {
      const res = await s.app.inject({ method: "GET", url });
      expect(String(res.headers["content-type"]), url).toMatch(/^text\/html/);
      expectPageHeaders(res);
      // The favicon browsers ask for on every page, from this origin only.
      if (url !== "/oauth2/logout")
        expect(String(res.headers["content-security-policy"]), url).toMatch(/img-src 'self'/);
    }
    // The hosted login keeps its own CSP (its stylesheet's hash) over the default one.
    const login = await s.app.inject({ method: "GET", url: authorizePath(validAuthorize(app, pkce().challenge)) });
    expect(String(login.headers["content-security-policy"])).toMatch(/style-src 'sha256-/);
    const docs = await s.app.inject({ method: "GET", url: "/docs" });
    expect(docs.statusCode).toBeLessThan(400);
    expectPageHeaders(docs);
    // JSON answers get them too (nothing to frame or sniff)
    const json = await s.app.inject({ method: "GET", url: "/v2/apps/1" });
    expect(json.headers["x-content-type-options"]).toBe("nosniff");
    expect(String(json.headers["content-security-policy"])).toMatch(/frame-ancestors 'none'/);
  });

  it("refuses a cross-site login form POST even with a valid cookie and form token", async () => {
    const page = await s.app.inject({ method: "GET", url: authorizePath(validAuthorize(app, pkce().challenge)) });
    const form = formOf(page);
    const foreign: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: otherBase },
      { "sec-fetch-site": "cross-site", origin: "null" },
      { "sec-fetch-site": "same-site" },
    ];
    for (const headers of foreign) {
      const res = await postLogin(s, form, user.email, PASSWORD, headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.headers.location).toBeUndefined();
      expect(String(res.headers["content-type"])).toMatch(/^text\/html/);
      expectPageHeaders(res);
    }
    // The same form from our own page (Sec-Fetch-Site same-origin; Origin null under no-referrer) still signs in.
    const ok = await postLogin(s, form, user.email, PASSWORD, { origin: "null", "sec-fetch-site": "same-origin" });
    expect(ok.statusCode).toBe(303);
    expect(String(ok.headers.location)).toMatch(/[?&]code=/);
  });

  it("lets a relying party POST the authorization request itself (no form token) from its own site", async () => {
    const params = validAuthorize(app, pkce().challenge);
    const res = await s.app.inject({
      method: "POST",
      url: "/oauth2/authorize",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://shop.example.com",
        "sec-fetch-site": "cross-site",
      },
      payload: new URLSearchParams(params as Record<string, string>).toString(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('name="form_token"');
  });

  it("in Chromium: another site cannot submit the login form with the victim's cookie and token", async () => {
    const context = await browser.newContext({ javaScriptEnabled: true });
    const page = await context.newPage();
    await page.goto(
      `${base}${authorizePath(validAuthorize(app, pkce().challenge, { redirect_uri: "http://127.0.0.1/callback" }))}`,
    );
    const token = await page.getAttribute('input[name="form_token"]', "value");
    attackerPage = `<!doctype html><form method="post" action="${base}/oauth2/authorize"><input name="form_token" value="${token}"><input name="email" value="${user.email}"><input name="password" value="${PASSWORD}"></form><script>document.forms[0].submit()</script>`;
    const answer = page.waitForResponse(
      (r) => r.url() === `${base}/oauth2/authorize` && r.request().method() === "POST",
    );
    await page.goto(`${otherBase}/attack`);
    expect((await answer).status()).toBe(403);
    await context.close();
  });

  it("in Chromium without JavaScript: the login form still signs in", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(
      `${base}${authorizePath(validAuthorize(app, pkce().challenge, { redirect_uri: "http://127.0.0.1/callback" }))}`,
    );
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(PASSWORD);
    const redirected = page.waitForResponse(
      (r) => r.url() === `${base}/oauth2/authorize` && r.request().method() === "POST",
    );
    await page.getByRole("button").first().click();
    const res = await redirected;
    expect(res.status()).toBe(303);
    expect(res.headers().location).toMatch(/^http:\/\/127\.0\.0\.1\/callback\?code=/);
    await context.close();
  });

  it("in Chromium: /docs renders Swagger UI under its CSP with no violation", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto(`${base}/docs`);
    await page.waitForSelector(".swagger-ui .info .title");
    expect(await page.textContent(".swagger-ui .info .title")).toContain("Gatehouse");
    // an operation opens (scripts and styles run)
    await page.locator(".opblock-summary").first().click();
    await page.waitForSelector(".opblock-body");
    const csp = (await page.request.get(`${base}/docs`)).headers()["content-security-policy"];
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    await page.screenshot({ path: `${process.env.SCREENSHOT_DIR ?? "/tmp"}/gatehouse-docs.png` });
    expect(problems).toEqual([]);
    await context.close();
  });
});
