import { randomBytes } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { audit } from "./admin-flows.ts";
import { launchConsoleBrowser, SESSION_KEY, shot, watchProblems } from "./console-page.ts";
import { cli, OPERATOR_PASSWORD, totpOf } from "./operator-flows.ts";
import { listeningStack } from "./rp-helpers.ts";
import type { TestStack } from "./stack-helpers.ts";
import { createApp, loggedUser, type FlowApp } from "./user-flows.ts";

// The console and the server together in headless Chromium, with no token
// injected: an operator created by create-operator opens /console, signs in
// on the hosted login, enrols TOTP, works (reveal, lock, audit, Spanish),
// signs out for real, signs in again (password and TOTP: the console offers
// no code sign-in), and loses a refused session to the sign-in screen.
// Screenshots: CONSOLE_SCREENSHOTS=<dir>.

describe("an operator signs in to the console for real (headless Chromium)", () => {
  let s: TestStack;
  let base: string;
  let env: Record<string, string>;
  let app: FlowApp;
  let browser: Browser;
  let email: string;
  let key: string;
  // Each TOTP time step works once per user: every sign-in takes a code no earlier one used.
  const used = new Set<string>();
  const freshCode = () => {
    const code = [0, 1, -1].map((step) => totpOf(key, step)).find((c) => !used.has(c))!;
    used.add(code);
    return code;
  };

  beforeAll(async () => {
    env = {
      DATABASE_URL: (await freshDatabase()).url,
      REDIS_URL: redisTestUrl(),
      REDIS_PREFIX: uniquePrefix(),
      SECRET_KEY: randomBytes(32).toString("base64url"),
    };
    ({ s, base } = await listeningStack(env));
    Object.assign(env, { PUBLIC_URL: base, DATA_DIR: s.config.dataDir });
    app = await createApp(s, `signin${randomBytes(2).toString("hex")}`, (b) => void (b.displayName = "Sign-in Shop"));
    browser = await launchConsoleBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  const session = (page: Page) =>
    page.evaluate((k) => JSON.parse(sessionStorage.getItem(k) ?? "null"), SESSION_KEY) as Promise<{
      accessToken: string;
      refreshToken?: string;
      idToken?: string;
      scope?: string;
    } | null>;
  const adminGet = (token: string) =>
    fetch(`${base}/admin/v1/apps?q=x`, { headers: { authorization: `Bearer ${token}` } });
  const form = (path: string, fields: Record<string, string>) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: "gatehouse-console", ...fields }),
    });
  const refreshWith = (refreshToken: string) =>
    form("/oauth2/token", { grant_type: "refresh_token", refresh_token: refreshToken });
  async function submit(page: Page, name: string) {
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name }).click()]);
  }

  it("first sign-in: hosted login, TOTP enrolment, recovery codes, back in the console signed in; a day's work; a real sign-out", async () => {
    email = `op.${randomBytes(3).toString("hex")}@example.com`;
    const r = await cli(["create-operator", "--email", email], env);
    expect(r.code).toBe(0);
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 }, locale: "en-US" });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(JSON.parse(r.out).link);
    await page.getByLabel("Password").fill(OPERATOR_PASSWORD);
    await submit(page, "Activate account");

    await page.goto(`${base}/console/`);
    await page.getByRole("heading", { name: "Sign in to the console" }).waitFor();
    await shot(page, "sign-in");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((u) => u.pathname === "/oauth2/authorize");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(OPERATOR_PASSWORD);
    await shot(page, "sign-in-hosted-login");
    await submit(page, "Sign in");
    expect(await page.getByRole("heading").textContent()).toBe("Set up two-step verification");
    await shot(page, "sign-in-enrol");
    key = (await page.locator(".secret code").textContent())!.replace(/\s/g, "");
    await page.getByLabel("6-digit code from the app").fill(freshCode());
    await submit(page, "Turn on two-step verification");
    expect(await page.getByRole("heading").textContent()).toBe("Save your recovery codes");
    expect(await page.locator(".codes li").count()).toBe(10);
    await shot(page, "sign-in-recovery-codes");
    await page.getByRole("button", { name: "I have saved them, continue" }).click();

    await page.getByRole("heading", { name: "Applications" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/console/apps");
    expect(await page.getByTestId("signed-in-as").textContent()).toBe(`Signed in as ${email}`);
    await shot(page, "signed-in");
    const signedIn = (await session(page))!;
    expect(decodeJwt(signedIn.accessToken)).toMatchObject({ email, client_id: "gatehouse-console" });
    expect(signedIn.scope).toBe("openid admin");
    // A public client with PKCE gets a rotating refresh token (no offline_access needed): see the last test.
    expect(signedIn.refreshToken).toMatch(/^[\w-]{43}$/);
    expect(decodeJwt(signedIn.idToken!)).toMatchObject({ aud: "gatehouse-console" });

    // Find the application and reveal its password (a confirmation first).
    await page.getByRole("searchbox", { name: "Search applications" }).fill("Sign-in Shop");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByRole("link", { name: "Sign-in Shop" }).click();
    await page.getByRole("button", { name: "Reveal password" }).click();
    await page
      .getByRole("dialog", { name: "Reveal the password?" })
      .getByRole("button", { name: "Reveal password" })
      .click();
    await expect.poll(() => page.getByTestId("secret-value").textContent()).toBe(app.password);

    // Lock a user.
    const user = await loggedUser(s, app);
    await page.getByRole("link", { name: "Users" }).click();
    await page.getByRole("searchbox", { name: "Search users" }).fill(user.email);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByRole("link", { name: user.email }).click();
    await page.getByRole("button", { name: "Lock account" }).click();
    await page
      .getByRole("dialog", { name: "Lock this account?" })
      .getByRole("button", { name: "Lock account" })
      .click();
    await page.getByText("Account locked.").waitFor();

    // The audit log names the operator by email.
    await page.getByRole("link", { name: "Audit log" }).click();
    await page.getByLabel("Actor").fill(`user:${decodeJwt(signedIn.accessToken).sub}`);
    await page.getByRole("button", { name: "Filter", exact: true }).click();
    const lockRow = page.getByRole("row").filter({ has: page.getByRole("cell", { name: "user.lock" }) });
    const revealRow = page.getByRole("row").filter({ has: page.getByRole("cell", { name: "client_secret.reveal" }) });
    await expect.poll(() => lockRow.textContent()).toContain(email);
    await expect.poll(() => revealRow.textContent()).toContain(email);
    const entries = await audit(s, { target: String(user.id) });
    expect(entries.find((e) => e.action === "user.lock")?.details).toMatchObject({ actorEmail: email });
    await shot(page, "audit-operator");

    // Spanish.
    await page.getByRole("combobox", { name: "Language" }).selectOption("es");
    await page.getByRole("heading", { name: "Registro de auditoría" }).waitFor();
    expect(await page.getByTestId("signed-in-as").textContent()).toBe(`Sesión iniciada como ${email}`);

    // Sign out: revocation, /oauth2/logout, back to the console signed out; the old token is refused.
    const logout = page.waitForRequest((r) => new URL(r.url()).pathname === "/oauth2/logout");
    await page.getByRole("button", { name: "Cerrar sesión" }).click();
    const q = Object.fromEntries(new URL((await logout).url()).searchParams);
    expect(q).toMatchObject({
      client_id: "gatehouse-console",
      post_logout_redirect_uri: `${base}/console/callback`,
      id_token_hint: signedIn.idToken,
    });
    await page.waitForURL((u) => u.pathname === "/console/callback");
    await page.getByText("Has cerrado la sesión.").or(page.getByText("You are signed out.")).waitFor();
    expect(await session(page)).toBeNull();
    expect((await adminGet(signedIn.accessToken)).status).toBe(401);
    expect((await refreshWith(signedIn.refreshToken!)).status).toBe(400);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it("a second sign-in asks the code (no enrolment) and lands signed in", async () => {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 }, locale: "en-US" });
    const page = await context.newPage();
    await page.goto(`${base}/console/users`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((u) => u.pathname === "/oauth2/authorize");
    // Operators sign in with the password and TOTP only: no code sign-in on the console's page.
    expect(await page.getByRole("button", { name: "Email me a code" }).count()).toBe(0);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(OPERATOR_PASSWORD);
    await submit(page, "Sign in");
    expect(await page.getByRole("heading").textContent()).toBe("Two-step verification");
    await page.getByLabel("Verification code").fill(freshCode());
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("heading", { name: "Users" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/console/users");
    expect(await page.getByTestId("signed-in-as").textContent()).toBe(`Signed in as ${email}`);

    // The server refuses the access token (revoked elsewhere): the console refreshes with its
    // refresh token (rotated) and the screen opens.
    const first = (await session(page))!;
    expect((await form("/oauth2/revoke", { token: first.accessToken, token_type_hint: "access_token" })).status).toBe(
      200,
    );
    const refreshed = page.waitForResponse((r) => new URL(r.url()).pathname === "/oauth2/token");
    await page.getByRole("link", { name: "Audit log" }).click();
    expect((await refreshed).status()).toBe(200);
    await page.getByRole("heading", { name: "Audit log" }).waitFor();
    await page.getByRole("cell", { name: "user.lock" }).first().waitFor();
    const second = (await session(page))!;
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(await page.getByTestId("signed-in-as").textContent()).toBe(`Signed in as ${email}`);

    // When the refresh token is refused too (its family revoked), the operator is sent to sign in again with a notice.
    expect(
      (await form("/oauth2/revoke", { token: second.refreshToken!, token_type_hint: "refresh_token" })).status,
    ).toBe(200);
    expect((await form("/oauth2/revoke", { token: second.accessToken, token_type_hint: "access_token" })).status).toBe(
      200,
    );
    await page.getByRole("link", { name: "Applications" }).click();
    await page.getByText("Your session ended. Sign in again to continue.").waitFor();
    expect(await session(page)).toBeNull();
    await shot(page, "session-ended");
    await context.close();
  }, 90_000);
});
