import { randomBytes } from "node:crypto";
import { chromium, type Browser, type Page } from "playwright-core";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { shot } from "./hosted-flows.ts";
import { cli, consoleRequest, OPERATOR_PASSWORD, totpOf } from "./operator-flows.ts";
import { freePort } from "./processes.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { createApp, loggedUser, PASSWORD } from "./user-flows.ts";

// An operator person's first sign-in to the console in headless Chromium:
// create-operator's link, the activation page, the console's hosted login,
// the TOTP enrolment page (its QR code drawn on the server, the key as
// text), the recovery codes, the redirect to /console/callback and its code
// bought with PKCE. Screenshots with HOSTED_SCREENSHOTS=<dir> (docs/images/operator).

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

describe("operator's first sign-in in headless Chromium", () => {
  let s: TestStack;
  let base: string;
  let env: Record<string, string>;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = {
      DATABASE_URL: (await freshDatabase()).url,
      REDIS_URL: redisTestUrl(),
      REDIS_PREFIX: uniquePrefix(),
      SECRET_KEY: randomBytes(32).toString("base64url"),
      PUBLIC_URL: base,
      PORT: String(port),
      HOST: "127.0.0.1",
    };
    s = await startTestStack({ env });
    env.DATA_DIR = s.config.dataDir;
    await s.app.listen({ port, host: "127.0.0.1" });
    browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  async function submit(page: Page, name: string | RegExp) {
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name }).click()]);
  }

  /** A new operator, activated in the browser with OPERATOR_PASSWORD. */
  async function newOperator(page: Page, lang: "en" | "es") {
    const email = `op.${lang}.${randomBytes(3).toString("hex")}@example.com`;
    const r = await cli(["create-operator", "--email", email], env);
    expect(r.code).toBe(0);
    await page.goto(JSON.parse(r.out).link);
    await page.getByLabel(lang === "es" ? "Contraseña" : "Password").fill(OPERATOR_PASSWORD);
    await submit(page, lang === "es" ? "Activar cuenta" : "Activate account");
    expect(await page.getByRole("heading").textContent()).toBe(
      lang === "es" ? "Tu cuenta está lista" : "Your account is ready",
    );
    return email;
  }

  it("signs in with enrolment (en, phone): QR and key, a code from the key, recovery codes, then the console's callback with a code that buys admin", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "en-US" });
    const page = await context.newPage();
    const email = await newOperator(page, "en");

    const req = consoleRequest(s);
    await page.goto(`${base}${req.path}`);
    expect(await page.getByRole("heading").textContent()).toBe("Sign in");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(OPERATOR_PASSWORD);
    await submit(page, "Sign in");

    expect(await page.getByRole("heading").textContent()).toBe("Set up two-step verification");
    const qr = page.getByRole("img", { name: "QR code for your authenticator app" });
    expect(await qr.locator("svg path").count()).toBeGreaterThan(0);
    const box = await qr.boundingBox();
    expect(box!.width).toBeGreaterThan(150);
    expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
    // Focus is on the code input: type the code straight away.
    expect(await page.evaluate("document.activeElement.name")).toBe("code");
    await shot(page, "enrol-en");
    const key = (await page.locator(".secret code").textContent())!.replace(/\s/g, "");
    expect(key).toMatch(/^[A-Z2-7]{32}$/);

    await page.getByLabel("6-digit code from the app").fill("123456" === totpOf(key) ? "654321" : "123456");
    await submit(page, "Turn on two-step verification");
    expect(await page.getByRole("alert").textContent()).toContain("That code is not right");
    expect((await page.locator(".secret code").textContent())!.replace(/\s/g, "")).toBe(key);
    await shot(page, "enrol-wrong-code-en");

    await page.getByLabel("6-digit code from the app").fill(totpOf(key));
    await submit(page, "Turn on two-step verification");
    expect(await page.getByRole("heading").textContent()).toBe("Save your recovery codes");
    expect(await page.locator(".codes li").count()).toBe(10);
    await shot(page, "recovery-codes-en");

    // The console's own callback page drops the code and state from the
    // address bar (a state it did not send): keep the URL the browser came back to.
    let callback: URL | undefined;
    const cameBack = (u: URL) => (callback ??= u.pathname === "/console/callback" ? u : undefined) !== undefined;
    await Promise.all([
      page.waitForURL(cameBack),
      page.getByRole("button", { name: "I have saved them, continue" }).click(),
    ]);
    const back = callback!;
    expect(back.searchParams.get("state")).toBe(req.params.state);
    const res = await fetch(`${base}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        client_id: "gatehouse-console",
        code: back.searchParams.get("code")!,
        redirect_uri: `${base}/console/callback`,
        code_verifier: req.verifier,
      }),
    });
    expect(res.status).toBe(200);
    const tokens = (await res.json()) as { access_token: string; scope: string };
    expect(tokens.scope).toBe("openid admin");
    expect(decodeJwt(tokens.access_token)).toMatchObject({ email, client_id: "gatehouse-console" });
    const apps = await fetch(`${base}/admin/v1/apps?q=gatehouse`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(apps.status).toBe(200);
    await context.close();
  }, 60_000);

  it("the enrolment page in Spanish on a desktop, and a non-operator's refusal page", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "es-ES" });
    const page = await context.newPage();
    const email = await newOperator(page, "es");
    const req = consoleRequest(s, { ui_locales: "es" });
    await page.goto(`${base}${req.path}`);
    await page.getByLabel("Correo electrónico").fill(email);
    await page.getByLabel("Contraseña").fill(OPERATOR_PASSWORD);
    await submit(page, "Iniciar sesión");
    expect(await page.getByRole("heading").textContent()).toBe("Configura la verificación en dos pasos");
    expect(await page.getAttribute("html", "lang")).toBe("es");
    await shot(page, "enrol-desktop-es");

    const app = await createApp(s, `np${Date.now().toString(36)}`);
    const user = await loggedUser(s, app);
    await page.goto(`${base}${consoleRequest(s, { ui_locales: "es" }).path}`);
    await page.getByLabel("Correo electrónico").fill(user.email);
    await page.getByLabel("Contraseña").fill(PASSWORD);
    await submit(page, "Iniciar sesión");
    expect(await page.getByRole("heading").textContent()).toBe("Esta cuenta no puede usar la consola");
    expect(new URL(page.url()).pathname).toBe("/oauth2/authorize");
    await shot(page, "not-operator-es");
    await context.close();
  }, 60_000);
});
