import { createServer, type Server } from "node:http";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorizePath, confirmedUser, createOAuthApp, pkce, validAuthorize } from "./oauth-flow.ts";
import { freePort } from "./processes.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { totpCode } from "@gatehouse/users";
import { loggedUser, PASSWORD, send, type FlowApp, type LoggedUser } from "./user-flows.ts";

// The hosted login in a real browser: Debian's headless Chromium driven by
// playwright-core against the stack (PostgreSQL + Redis) on a real port. The
// application registered the loopback URI http://127.0.0.1/callback; the
// browser lands on a tiny callback server on another port (RFC 8252 rule).

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

describe("hosted login in headless Chromium", () => {
  let s: TestStack;
  let base: string;
  let app: FlowApp;
  let user: LoggedUser;
  let browser: Browser;
  let callback: Server;
  let redirectUri: string;
  const landed: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    s = await startTestStack({ env: { PUBLIC_URL: base, PORT: String(port), HOST: "127.0.0.1" } });
    await s.app.listen({ port, host: "127.0.0.1" });
    app = await createOAuthApp(s);
    user = await confirmedUser(s, app);
    callback = createServer((req, res) => {
      landed.push(req.url ?? "");
      res
        .writeHead(200, { "content-type": "text/html" })
        .end("<!doctype html><title>callback</title><p>back at the application</p>");
    });
    await new Promise<void>((resolve) => callback.listen(0, "127.0.0.1", resolve));
    redirectUri = `http://127.0.0.1:${(callback.address() as { port: number }).port}/callback`;
    browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => callback?.close(r));
    await s?.close();
  });

  it("fills the form, lands on the redirect URI with code and state, and the code is exchanged with PKCE", async () => {
    const { verifier, challenge } = pkce();
    const params = validAuthorize(app, challenge, { redirect_uri: redirectUri });
    // A phone-sized window: the form must fit without horizontal scrolling.
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: "en-US" });
    const page = await context.newPage();
    await page.goto(`${base}${authorizePath(params)}`);
    expect(await page.getAttribute("html", "lang")).toBe("en");
    // (A string: the test code is typed for Node, the expression runs in the page.)
    expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);

    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(PASSWORD);
    await Promise.all([
      page.waitForURL((u) => u.pathname === "/callback"),
      page.getByRole("button", { name: "Sign in", exact: true }).click(),
    ]);

    const back = new URL(page.url());
    expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
    expect(back.searchParams.get("state")).toBe(params.state);
    expect(back.searchParams.get("iss")).toBe(base);
    const code = back.searchParams.get("code")!;
    expect(landed.some((u) => u.includes(`code=${encodeURIComponent(code)}`) || u.includes(`code=${code}`))).toBe(true);

    const res = await fetch(`${base}/oauth2/token`, {
      method: "POST",
      headers: { authorization: s.basic(app.id, app.password), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      }),
    });
    expect(res.status).toBe(200);
    const tokens = (await res.json()) as { access_token: string; id_token: string; refresh_token: string };
    expect(tokens.id_token).toBeTruthy();
    expect(tokens.refresh_token).toBeTruthy();
    await context.close();
  });

  it("speaks Spanish and re-shows the form with an alert after a wrong password", async () => {
    const { challenge } = pkce();
    const context = await browser.newContext({ locale: "es-ES" });
    const page = await context.newPage();
    await page.goto(`${base}${authorizePath(validAuthorize(app, challenge, { redirect_uri: redirectUri }))}`);
    expect(await page.getAttribute("html", "lang")).toBe("es");
    await page.getByLabel("Correo electrónico").fill(user.email);
    await page.getByLabel("Contraseña").fill("wrong password");
    await Promise.all([
      page.waitForLoadState("load"),
      page.getByRole("button", { name: "Iniciar sesión", exact: true }).click(),
    ]);
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("no son correctos");
    expect(new URL(page.url()).pathname).toBe("/oauth2/authorize");
    await context.close();
  });

  it("asks for the TOTP code of a user with MFA on (428): a wrong code re-asks, the right one lands on the redirect URI", async () => {
    const mfaUser = await loggedUser(s, app);
    const post = (url: string, body: unknown) => send(s, "POST", url, mfaUser.accessToken, app.entrypoint, body);
    const secret = (await post("/activityid/v1/user/mfa/totp", {})).json().content.totp.secret as string;
    // The previous time step confirms the factor; the current one is left for the login.
    expect(
      (await post("/activityid/v1/user/mfa/totp/confirm", { code: totpCode(secret, Date.now() - 30_000) })).statusCode,
    ).toBe(200);

    const { verifier, challenge } = pkce();
    const params = validAuthorize(app, challenge, { redirect_uri: redirectUri });
    const context = await browser.newContext({ locale: "en-US" });
    const page = await context.newPage();
    await page.goto(`${base}${authorizePath(params)}`);
    await page.getByLabel("Email").fill(mfaUser.email);
    await page.getByLabel("Password").fill(PASSWORD);
    await Promise.all([
      page.waitForLoadState("load"),
      page.getByRole("button", { name: "Sign in", exact: true }).click(),
    ]);
    await expect.poll(() => page.getByRole("heading").textContent()).toBe("Two-step verification");

    await page.getByLabel("Verification code").fill("000000" === totpCode(secret) ? "111111" : "000000");
    await Promise.all([page.waitForLoadState("load"), page.getByRole("button").click()]);
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("not correct");

    await page.getByLabel("Verification code").fill(totpCode(secret));
    await Promise.all([page.waitForURL((u) => u.pathname === "/callback"), page.getByRole("button").click()]);
    const back = new URL(page.url());
    expect(back.searchParams.get("state")).toBe(params.state);
    const res = await fetch(`${base}/oauth2/token`, {
      method: "POST",
      headers: { authorization: s.basic(app.id, app.password), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: back.searchParams.get("code")!,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      }),
    });
    expect(res.status).toBe(200);
    await context.close();
  });

  it("shows an error page, never a redirect, for a redirect URI that is not registered", async () => {
    const { challenge } = pkce();
    const context = await browser.newContext();
    const page = await context.newPage();
    const res = await page.goto(
      `${base}${authorizePath(validAuthorize(app, challenge, { redirect_uri: "http://localhost:1/callback" }))}`,
    );
    expect(res?.status()).toBe(400);
    expect(new URL(page.url()).origin).toBe(base);
    await context.close();
  });
});
