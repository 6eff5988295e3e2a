import { createHash } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, audit } from "./admin-flows.ts";
import { PENDING_KEY, launchConsoleBrowser, shot, signedInContext, watchProblems } from "./console-page.ts";
import { listeningStack } from "./rp-helpers.ts";
import type { TestStack } from "./stack-helpers.ts";
import { createApp, type FlowApp } from "./user-flows.ts";

// The console end to end in Chromium against a real stack (PostgreSQL +
// Redis, listening): the sign-in request it builds, then an operator's day:
// find an application, reveal and rotate its password, edit its settings and
// entry points, add a catalog item, sign out. Users, legal assertions, the
// audit log and Spanish: console-operations.test.ts.

describe("the console (headless Chromium)", () => {
  let s: TestStack;
  let base: string;
  let app: FlowApp;
  let token: string;
  let browser: Browser;

  beforeAll(async () => {
    ({ s, base } = await listeningStack());
    app = await createApp(s, "consoleshop", (b) => void (b.displayName = "Console Shop"));
    token = await s.operatorToken("admin");
    browser = await launchConsoleBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it("signing in sends the browser to the hosted login with code + PKCE S256, the console's client and a state", async () => {
    const context = await browser.newContext({ locale: "en-US" });
    const page = await context.newPage();
    const res = await page.goto(`${base}/console/`);
    expect(res?.headers()["content-security-policy"]).toContain("script-src 'self'");
    await shot(page, "sign-in");
    const authorize = page.waitForRequest((r) => new URL(r.url()).pathname === "/oauth2/authorize");
    await page.getByRole("button", { name: "Sign in" }).click();
    const url = new URL((await authorize).url());
    const q = Object.fromEntries(url.searchParams);
    expect(url.origin).toBe(base);
    expect(q).toMatchObject({
      response_type: "code",
      client_id: "gatehouse-console",
      redirect_uri: `${base}/console/callback`,
      scope: "openid admin",
      code_challenge_method: "S256",
    });
    // The state and verifier wait in this tab's sessionStorage; the challenge is S256 of the verifier.
    await page.waitForURL((u) => u.pathname === "/oauth2/authorize");
    const pending = JSON.parse((await page.evaluate((k) => sessionStorage.getItem(k), PENDING_KEY))!);
    expect(q.state).toBe(pending.state);
    expect(q.state).toMatch(/^[\w-]{43}$/);
    expect(q.code_challenge).toBe(createHash("sha256").update(pending.verifier).digest("base64url"));
    // A callback whose state is not the pending one is refused before any code exchange.
    const tokenCalls: string[] = [];
    page.on("request", (r) => r.url().includes("/oauth2/token") && tokenCalls.push(r.url()));
    await page.goto(`${base}/console/callback?code=stolen&state=forged`);
    await expect
      .poll(() => page.getByRole("status").first().textContent())
      .toContain("does not belong to a sign-in started here");
    expect(tokenCalls).toEqual([]);
    await context.close();
  });

  it("a token the server refuses ends the session: the sign-in screen says so and reopens the same screen after", async () => {
    const context = await signedInContext(browser, "not-a-valid-token");
    const page = await context.newPage();
    await page.goto(`${base}/console/users?q=ana`);
    await page.getByText("Your session ended. Sign in again to continue.").waitFor();
    expect(await page.evaluate("sessionStorage.getItem('gatehouse.console.session')")).toBeNull();
    await shot(page, "sign-in-expired");
    const authorize = page.waitForRequest((r) => new URL(r.url()).pathname === "/oauth2/authorize");
    await page.getByRole("button", { name: "Sign in" }).click();
    await authorize;
    await page.waitForURL((u) => u.pathname === "/oauth2/authorize");
    const pending = JSON.parse(
      (await page.evaluate(`sessionStorage.getItem(${JSON.stringify(PENDING_KEY)})`)) as string,
    );
    expect(pending.returnTo).toBe("/users?q=ana");
    await context.close();
  });

  it("finds an application, reveals its password after a confirmation, rotates it (the old one stops at once)", async () => {
    const context = await signedInContext(browser, token);
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${base}/console/apps`);
    await page.getByRole("searchbox", { name: "Search applications" }).fill("no-such-application");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByText("No application matches this search.").waitFor();
    expect(new URL(page.url()).searchParams.get("q")).toBe("no-such-application");
    await shot(page, "applications-empty");
    await page.getByRole("searchbox", { name: "Search applications" }).fill("Console");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByRole("link", { name: "Console Shop" }).waitFor();
    await shot(page, "applications");
    await page.getByRole("link", { name: "Console Shop" }).click();
    await page.getByRole("heading", { name: "Entry points" }).waitFor();
    await shot(page, "application");

    await page.getByRole("button", { name: "Reveal password" }).click();
    const dialog = page.getByRole("dialog", { name: "Reveal the password?" });
    await dialog.waitFor();
    await shot(page, "application-reveal-confirm");
    await dialog.getByRole("button", { name: "Reveal password" }).click();
    await expect.poll(() => page.getByTestId("secret-value").textContent()).toBe(app.password);

    await page.getByRole("button", { name: "Rotate password" }).click();
    await page
      .getByRole("dialog", { name: "Rotate the password?" })
      .getByRole("button", { name: "Rotate password" })
      .click();
    await page.getByText("New password: copy it now").waitFor();
    const rotated = (await page.getByTestId("secret-value").textContent())!;
    expect(rotated).not.toBe(app.password);
    await shot(page, "application-rotated");
    const tokenWith = (secret: string) =>
      s.app.inject({
        method: "POST",
        url: "/oauth2/token",
        headers: { authorization: s.basic(app.id, secret), "content-type": "application/x-www-form-urlencoded" },
        payload: "grant_type=client_credentials",
      });
    expect((await tokenWith(app.password)).statusCode).toBe(401);
    expect((await tokenWith(rotated)).statusCode).toBe(200);
    expect((await audit(s, { target: app.id })).map((e) => e.action)).toEqual(
      expect.arrayContaining(["client_secret.reveal", "client_secret.rotate"]),
    );
    expect(problems).toEqual([]);
    await context.close();
  });

  it("edits settings and shows an entry point's fields as the form they become", async () => {
    const context = await signedInContext(browser, token);
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${base}/console/apps/${app.id}`);
    await page.getByRole("button", { name: "Edit settings" }).click();
    await page
      .getByLabel("Whitelist (context.url redirects)")
      .fill("https://shop.example.com/callback\nhttps://shop.example.com/welcome");
    await page.getByLabel("MFA").selectOption("optional");
    await page.getByLabel("Bot check on hosted sign-up").selectOption("altcha");
    await page.getByLabel("Text messages per hour").fill("40");
    await page.getByLabel("Allowed calling codes").fill("+34 +52");
    await shot(page, "application-edit");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Saved.").waitFor();
    const saved = (await admin(s, "GET", `/admin/v1/apps/${app.id}`)).json().content;
    expect(saved).toMatchObject({
      whitelist: ["https://shop.example.com/callback", "https://shop.example.com/welcome"],
      mfa: "optional",
      captcha: "altcha",
      smsPerHour: 40,
      phonePrefixes: ["+34", "+52"],
    });

    const preview = page.getByRole("figure", { name: "The form it becomes" }).first();
    await expect.poll(() => preview.textContent()).toMatch(/Email \*.*Mobile phone.*Password \*/);
    await page.getByRole("button", { name: "Add entry point" }).click();
    await page.getByLabel("Display name", { exact: true }).last().fill("Kiosk");
    await page.getByLabel("Key", { exact: true }).fill("kiosk");
    await page.getByLabel("Passwordless").check();
    await page.getByRole("button", { name: "Add field" }).click();
    await shot(page, "entrypoint-new");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Entry point added.").waitFor();
    await page.getByRole("heading", { name: "Kiosk" }).waitFor();
    const eps = (await admin(s, "GET", `/admin/v1/apps/${app.id}`)).json().content.entrypoints;
    expect(eps.map((e: { id: string }) => e.id)).toContain(`${app.id}_kiosk`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("adds a catalog item; deleting one an application uses says why it cannot (409 in_use)", async () => {
    const context = await signedInContext(browser, token);
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${base}/console/apps`);
    await page.getByRole("link", { name: "Catalogs" }).click();
    await page.getByRole("cell", { name: "default", exact: true }).waitFor();
    await page.getByRole("button", { name: "Add item" }).click();
    await page.getByLabel("Key").fill("acme");
    await page.getByLabel("Display name").fill("Acme Corporation");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("“acme” added.").waitFor();
    await page.getByRole("cell", { name: "Acme Corporation" }).waitFor();
    await shot(page, "catalogs");
    await page.getByRole("button", { name: "Delete default" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Delete" }).click();
    await dialog.getByText("“default” is still used by an application").waitFor();
    await shot(page, "catalogs-in-use");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("link", { name: "Data fields" }).click();
    await page.getByRole("cell", { name: "birthday", exact: true }).waitFor();
    await shot(page, "catalogs-fields");
    expect((await audit(s, { action: "catalog_entry.create" })).map((e) => e.target)).toContainEqual(
      expect.stringContaining("acme"),
    );
    expect(problems).toEqual([]);
    await context.close();
  });

  it("signing out revokes the tokens as the console's client and ends the hosted-login session", async () => {
    const context = await signedInContext(browser, token);
    const page = await context.newPage();
    await page.goto(`${base}/console/apps`);
    await page.getByRole("heading", { name: "Applications" }).waitFor();
    const revoked: Record<string, string>[] = [];
    page.on(
      "request",
      (r) =>
        new URL(r.url()).pathname === "/oauth2/revoke" &&
        revoked.push(Object.fromEntries(new URLSearchParams(r.postData() ?? ""))),
    );
    const logout = page.waitForRequest((r) => new URL(r.url()).pathname === "/oauth2/logout");
    await page.getByRole("button", { name: "Sign out" }).click();
    const q = Object.fromEntries(new URL((await logout).url()).searchParams);
    expect(q).toMatchObject({ client_id: "gatehouse-console", post_logout_redirect_uri: `${base}/console/callback` });
    expect(revoked).toEqual([{ client_id: "gatehouse-console", token, token_type_hint: "access_token" }]);
    // The server ends the hosted-login session and sends the browser back to the console, signed out.
    await page.waitForURL((u) => u.pathname === "/console/callback");
    await page.getByText("You are signed out.").waitFor();
    const stored = await page.evaluate(
      (k) => [sessionStorage.getItem(k), sessionStorage.getItem("gatehouse.console.pending")],
      "gatehouse.console.session",
    );
    expect(stored).toEqual([null, null]);
    await context.close();
  });
});
