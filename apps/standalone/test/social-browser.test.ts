import { createServer, type Server } from "node:http";
import { startUpstreamIdp, type UpstreamIdp } from "@gatehouse/testing/upstream-idp";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shot } from "./hosted-flows.ts";
import { authorizePath, pkce, validAuthorize } from "./oauth-flow.ts";
import { freePort } from "./processes.ts";
import { registerProvider } from "./social-flows.ts";
import { startTestStack, validApplication, type TestStack } from "./stack-helpers.ts";
import { createApp, loggedUser, PASSWORD, type FlowApp } from "./user-flows.ts";

// Social sign-in in Chromium, without JavaScript on Gatehouse's pages: the
// provider buttons of the hosted login, the round trip through a REAL
// OpenID Connect provider (oidc-provider on loopback, its own login and
// consent pages), and the pages of linking, registration and failure, in
// English and Spanish. HOSTED_SCREENSHOTS=<dir> saves what is looked at.

const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"];

describe("social sign-in in a browser", () => {
  let s: TestStack;
  let idp: UpstreamIdp;
  let app: FlowApp;
  let browser: Browser;
  let rp: Server;
  let base: string;
  let redirectUri: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    idp = await startUpstreamIdp([`${base}/oauth2/idp/callback`]);
    s = await startTestStack({
      env: { PUBLIC_URL: base, PORT: String(port), HOST: "127.0.0.1" },
    });
    await s.app.listen({ port, host: "127.0.0.1" });
    rp = createServer((_q, res) => res.writeHead(200, { "content-type": "text/html" }).end("<title>back</title>"));
    await new Promise<void>((r) => rp.listen(0, "127.0.0.1", r));
    redirectUri = `http://127.0.0.1:${(rp.address() as { port: number }).port}/callback`;
    await registerProvider(s, idp, "google-like", { displayName: "Google" });
    await registerProvider(s, idp, "apple-like", { displayName: "Apple" });
    app = await createApp(s, "socialb", (b) => {
      b.displayName = "Northwind Outfitters";
      b.redirectUris = ["http://127.0.0.1/callback"];
      b.entrypoints[0].identityProviders = ["google-like", "apple-like"];
      const extra = structuredClone(validApplication().entrypoints[0]);
      extra.key = "more";
      extra.identityProviders = ["google-like"];
      extra.fields.push({ objectType: "fieldConfig", type: "field", key: "gender", mandatory: true });
      b.entrypoints.push(extra);
    });
    browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await idp?.close();
    rp?.close();
  });

  async function open(lang: "en" | "es", entrypoint: string): Promise<{ page: Page; state: string }> {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: lang === "es" ? "es-ES" : "en-US",
      javaScriptEnabled: false,
    });
    const page = await context.newPage();
    const params = validAuthorize(app, pkce().challenge, { redirect_uri: redirectUri, entrypoint });
    expect((await page.goto(`${base}${authorizePath(params)}`))?.status()).toBe(200);
    return { page, state: params.state! };
  }

  /** At the provider (its own pages, which use no script either): sign in as `login` and consent, or cancel. */
  async function atProvider(page: Page, login: string, cancel = false): Promise<void> {
    await page.waitForURL((u) => u.href.startsWith(idp.issuer));
    if (cancel) {
      await Promise.all([page.waitForNavigation(), page.getByRole("link", { name: /cancel/i }).click()]);
      return;
    }
    await page.fill('input[name="login"]', login);
    await page.fill('input[name="password"]', "any");
    await Promise.all([page.waitForNavigation(), page.locator('button[type="submit"]').click()]);
    await Promise.all([
      page.waitForURL((u) => !u.href.startsWith(idp.issuer)),
      page.locator('button[type="submit"]').click(),
    ]);
  }

  it("the buttons (en, es) sign a new user up through the provider and land on the redirect URI with the code", async () => {
    const es = await open("es", app.entrypoint);
    await expect(es.page.getByRole("button", { name: "Continuar con Google" })).toBeDefined();
    expect(await es.page.locator('button[name="idp"]').allTextContents()).toEqual([
      "Continuar con Google",
      "Continuar con Apple",
    ]);
    await shot(es.page, "social-login-es");
    const { page, state } = await open("en", app.entrypoint);
    expect(await page.locator('button[name="idp"]').allTextContents()).toEqual([
      "Continue with Google",
      "Continue with Apple",
    ]);
    await shot(page, "social-login-en");
    idp.accounts.set("lucia", { email: "lucia@example.com", email_verified: true, given_name: "Lucía" });
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Continue with Google" }).click()]);
    await atProvider(page, "lucia");
    await page.waitForURL((u) => u.href.startsWith(redirectUri));
    const back = new URL(page.url());
    expect(back.searchParams.get("state")).toBe(state);
    expect(back.searchParams.get("code")).toBeTruthy();
  });

  it("an account with the same email is linked after its password (es); a cancel at the provider says so (en)", async () => {
    const user = await loggedUser(s, app);
    idp.accounts.set("marta", { email: user.email, email_verified: false });
    const { page, state } = await open("es", app.entrypoint);
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Continuar con Apple" }).click()]);
    await atProvider(page, "marta");
    await page.waitForURL((u) => u.pathname === "/oauth2/idp/callback");
    expect(await page.locator(".notice").textContent()).toContain(`Ya existe una cuenta con ${user.email}`);
    expect(await page.locator('input[name="email"]').inputValue()).toBe(user.email);
    await shot(page, "social-link-es");
    await page.fill('input[name="password"]', PASSWORD);
    await Promise.all([
      page.waitForNavigation(),
      page.getByRole("button", { name: "Iniciar sesión", exact: true }).click(),
    ]);
    await page.waitForURL((u) => u.href.startsWith(redirectUri));
    expect(new URL(page.url()).searchParams.get("state")).toBe(state);

    const cancelled = await open("en", app.entrypoint);
    await Promise.all([
      cancelled.page.waitForNavigation(),
      cancelled.page.getByRole("button", { name: "Continue with Google" }).click(),
    ]);
    await atProvider(cancelled.page, "", true);
    await cancelled.page.waitForURL((u) => u.pathname === "/oauth2/idp/callback");
    expect(await cancelled.page.locator("#form-error").textContent()).toContain("cancelled at the provider");
    await shot(cancelled.page, "social-cancelled-en");
  });

  it("missing mandatory data is asked before the account exists: no password, the provider's email read-only (en, es)", async () => {
    for (const lang of ["en", "es"] as const) {
      const login = `nora-${lang}`;
      idp.accounts.set(login, { email: `${login}@example.com`, email_verified: true, given_name: "Nora" });
      const { page, state } = await open(lang, `${app.id}_more`);
      const label = lang === "es" ? "Continuar con Google" : "Continue with Google";
      await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: label }).click()]);
      await atProvider(page, login);
      await page.waitForURL((u) => u.pathname === "/oauth2/idp/callback");
      expect(await page.locator('input[name="password"]').count()).toBe(0);
      expect(await page.locator('input[name="email"]').getAttribute("readonly")).not.toBeNull();
      await shot(page, `social-signup-${lang}`);
      expect(await page.locator('input[name="name"]').inputValue()).toBe("Nora");
      await page.fill('input[name="gender"]', "female");
      await Promise.all([page.waitForNavigation(), page.locator("button.primary").click()]);
      await page.waitForURL((u) => u.href.startsWith(redirectUri));
      expect(new URL(page.url()).searchParams.get("state")).toBe(state);
    }
  });
});
