import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmedUser } from "./oauth-flow.ts";
import { listeningStack } from "./rp-helpers.ts";
import { spaPage } from "./spa-page.ts";
import type { TestStack } from "./stack-helpers.ts";
import { createApp, PASSWORD, type FlowApp, type LoggedUser } from "./user-flows.ts";

// A single-page application in headless Chromium on another origin (another
// port) signs in as a public client: code + PKCE with fetch (CORS) to the
// token endpoint, UserInfo, refresh and revocation. A page of an origin
// that is no application's cannot read any of those answers.
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

async function staticServer(html: () => string): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) =>
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html()),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

describe("a browser SPA as a public client (headless Chromium)", () => {
  let s: TestStack;
  let base: string;
  let app: FlowApp;
  let user: LoggedUser;
  let browser: Browser;
  let spa: { server: Server; origin: string };
  let stranger: { server: Server; origin: string };

  beforeAll(async () => {
    ({ s, base } = await listeningStack());
    spa = await staticServer(() => spaPage({ issuer: base, clientId: app.entrypoint }));
    stranger = await staticServer(() => spaPage({ issuer: base, clientId: app.entrypoint }));
    // The SPA's exact redirect URI (its origin, with the port, is what CORS answers).
    app = await createApp(s, "spa", (body) => void (body.redirectUris = [`${spa.origin}/callback`]));
    user = await confirmedUser(s, app);
    browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    for (const x of [spa, stranger]) await new Promise((r) => x?.server.close(r));
    await s?.close();
  });

  it("signs in with code + PKCE, reads UserInfo, refreshes and revokes, all with fetch across origins", async () => {
    const context = await browser.newContext({ viewport: { width: 800, height: 900 }, locale: "en-US" });
    const page = await context.newPage();
    const failures: string[] = [];
    page.on("requestfailed", (r) => failures.push(`${r.method()} ${r.url()} ${r.failure()?.errorText}`));
    await page.goto(`${spa.origin}/`);
    await Promise.all([
      page.waitForURL((u) => u.pathname === "/oauth2/authorize"),
      page.getByRole("button", { name: "Sign in with Gatehouse" }).click(),
    ]);
    expect(new URL(page.url()).origin).toBe(base);
    await page.screenshot({ path: join(tmpdir(), "gatehouse-spa-login.png") });
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(PASSWORD);
    await Promise.all([
      page.waitForURL((u) => u.pathname === "/callback"),
      page.getByRole("button", { name: "Sign in", exact: true }).click(),
    ]);
    expect(new URL(page.url()).origin).toBe(spa.origin);
    await expect
      .poll(() => page.locator("#status").textContent(), { timeout: 15_000 })
      .toBe(`Signed in as ${user.email}`);
    const result = JSON.parse((await page.locator("#result").textContent())!);
    expect(result).toMatchObject({
      userinfo: { sub: String(user.id), email: user.email, email_verified: true, name: "Ana" },
      idToken: { aud: app.entrypoint, sub: String(user.id), nonceMatches: true },
      scope: "openid profile email offline_access",
      refreshed: true,
      revocation: { status: 200, body: {} },
    });
    expect(result.jwksKeys).toBeGreaterThanOrEqual(2);
    expect(failures).toEqual([]);
    await page.screenshot({ path: join(tmpdir(), "gatehouse-spa.png"), fullPage: true });
    await context.close();
  });

  it("a page from an origin no application registered cannot read discovery, tokens or UserInfo", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${stranger.origin}/`);
    const outcome = await page.evaluate(`(async () => {
      const tries = {
        discovery: () => fetch(${JSON.stringify(base)} + "/.well-known/openid-configuration"),
        jwks: () => fetch(${JSON.stringify(base)} + "/oauth2/jwks"),
        token: () => fetch(${JSON.stringify(base)} + "/oauth2/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=refresh_token&client_id=${app.entrypoint}&refresh_token=x" }),
        userinfo: () => fetch(${JSON.stringify(base)} + "/oauth2/userinfo", { headers: { authorization: "Bearer x" } }),
      };
      const out = {};
      for (const [name, run] of Object.entries(tries)) out[name] = await run().then((r) => "read " + r.status, (e) => "blocked: " + e.name);
      return out;
    })()`);
    expect(outcome).toEqual({
      discovery: "blocked: TypeError",
      jwks: "blocked: TypeError",
      token: "blocked: TypeError",
      userinfo: "blocked: TypeError",
    });
    await context.close();
  });
});
