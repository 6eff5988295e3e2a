import { readFile } from "node:fs/promises";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SoftAuthenticator } from "@gatehouse/testing";
import { audit } from "./admin-flows.ts";
import { launchConsoleBrowser, shot, signedInContext, watchProblems } from "./console-page.ts";
import { confirmedUser } from "./oauth-flow.ts";
import { listeningStack } from "./rp-helpers.ts";
import type { TestStack } from "./stack-helpers.ts";
import { createApp, loginEnvelope, registerEnvelope, send, type FlowApp, type LoggedUser } from "./user-flows.ts";

// The console's user screens, legal assertions, audit log and Spanish in
// Chromium against a real stack: lock a user and see login refused, export
// and delete with a typed confirmation, filter the audit log.

describe("the console's users, assertions and audit log (headless Chromium)", () => {
  let s: TestStack;
  let base: string;
  let app: FlowApp;
  let user: LoggedUser;
  let token: string;
  let browser: Browser;

  beforeAll(async () => {
    ({ s, base } = await listeningStack());
    app = await createApp(s, "opsapp");
    user = await confirmedUser(s, app);
    token = await s.operatorToken("admin");
    browser = await launchConsoleBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it("finds a user, locks the account (login refused with 403 account_locked), exports the data, sees it in the audit log", async () => {
    const context = await signedInContext(browser, token);
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${base}/console/users`);
    await page.getByRole("searchbox", { name: "Search users" }).fill(user.email);
    await page.keyboard.press("Enter");
    await page.getByRole("link", { name: user.email }).waitFor();
    await shot(page, "users");
    await page.getByRole("link", { name: user.email }).click();
    await page.getByRole("heading", { name: "Identifiers" }).waitFor();
    await shot(page, "user");

    await page.getByRole("button", { name: "Lock account" }).click();
    const dialog = page.getByRole("dialog", { name: "Lock this account?" });
    await shot(page, "user-lock-confirm");
    await dialog.getByRole("button", { name: "Lock account" }).click();
    await page.getByText("Account locked.").waitFor();
    await page.getByRole("button", { name: "Unlock account" }).waitFor();
    const refused = await send(
      s,
      "POST",
      "/activityid/v1/user/access",
      app.token,
      app.entrypoint,
      loginEnvelope(app, user.email),
    );
    expect([refused.statusCode, refused.json().errors.code]).toEqual([403, "account_locked"]);

    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export data (JSON)" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`user-${user.id}.json`);
    const exported = JSON.parse(await readFile((await file.path())!, "utf8"));
    expect(exported.user).toMatchObject({ id: user.id, status: "locked", ids: { email: { value: user.email } } });
    await page.getByText("Export downloaded.").waitFor();
    await shot(page, "user-locked");

    await page.getByRole("link", { name: "Audit log" }).click();
    await page.getByLabel("Target").fill(String(user.id));
    await page.getByRole("button", { name: "Filter", exact: true }).click();
    await page.getByRole("cell", { name: "user.lock" }).waitFor();
    await page.getByRole("cell", { name: "user.export" }).waitFor();
    expect(new URL(page.url()).searchParams.get("target")).toBe(String(user.id));
    await shot(page, "audit-filtered");
    await page.getByRole("button", { name: "Clear filters" }).click();
    await page.getByRole("cell", { name: "application.create" }).first().waitFor();
    await shot(page, "audit");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("deletes a user only after the id is typed; the identifiers are free again", async () => {
    const other = await confirmedUser(s, app);
    const context = await signedInContext(browser, token);
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${base}/console/users/${other.id}`);
    await page.getByRole("button", { name: "Delete user" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this user?" });
    const confirm = dialog.getByRole("button", { name: "Delete user" });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(`Type ${other.id} to confirm`).fill(String(other.id));
    await shot(page, "user-delete-confirm");
    await confirm.click();
    await page.getByText(`User ${other.id} deleted.`).waitFor();
    expect((await audit(s, { action: "user.delete", target: String(other.id) })).length).toBe(1);
    const again = await send(
      s,
      "POST",
      "/activityid/v1/user/register",
      app.token,
      app.entrypoint,
      registerEnvelope(app, other.email),
    );
    expect(again.statusCode).toBe(201);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows a user's passkey count and removes the passkeys after a confirmation", async () => {
    const holder = await confirmedUser(s, app);
    const options = await send(
      s,
      "POST",
      "/activityid/v1/user/passkeys/options",
      holder.accessToken,
      app.entrypoint,
      {},
    );
    const credential = new SoftAuthenticator(new URL(s.config.publicAuthUrl).origin).create(
      options.json().content.publicKey,
    );
    const enrolled = await send(s, "POST", "/activityid/v1/user/passkeys", holder.accessToken, app.entrypoint, {
      credential,
    });
    expect(enrolled.statusCode).toBe(201);
    const context = await signedInContext(browser, token);
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${base}/console/users/${holder.id}`);
    const count = page.locator("dt", { hasText: "Passkeys" }).locator("xpath=following-sibling::dd");
    expect(await count.textContent()).toBe("1");
    await page.getByRole("button", { name: "Remove passkeys" }).click();
    const dialog = page.getByRole("dialog", { name: "Remove this user's passkeys?" });
    await shot(page, "user-passkeys-confirm");
    await dialog.getByRole("button", { name: "Remove passkeys" }).click();
    await page.getByText("Passkeys removed: 1.").waitFor();
    expect(await count.textContent()).toBe("0");
    expect((await audit(s, { action: "user.passkeys.remove", target: String(holder.id) })).length).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("publishes a legal assertion and a new version of it", async () => {
    const context = await signedInContext(browser, token);
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${base}/console/assertions`);
    await page.getByRole("button", { name: "New assertion" }).click();
    await page.getByLabel("Key", { exact: true }).fill("privacy");
    await page.getByLabel("Version", { exact: true }).fill("2026-01");
    await page.getByLabel("Text (English)").fill("I have read the privacy policy");
    await page.getByLabel("Text (Spanish)").fill("He leído la política de privacidad");
    await page.getByRole("button", { name: "Publish version" }).click();
    await page.getByText("Version 2026-01 of “privacy” published.").waitFor();
    await page.getByRole("button", { name: "Publish a new version: privacy" }).click();
    await page.getByLabel("Version", { exact: true }).fill("2026-02");
    await page.getByRole("button", { name: "Publish version" }).click();
    await page.getByText("Version 2026-02 of “privacy” published.").waitFor();
    await page.getByRole("cell", { name: "2026-01" }).waitFor();
    await shot(page, "assertions");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("switches to Spanish (and follows the browser's language by default)", async () => {
    const context = await signedInContext(browser, token);
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${base}/console/audit`);
    await page.getByRole("heading", { name: "Audit log" }).waitFor();
    await page.getByRole("combobox", { name: "Language" }).selectOption("es");
    await page.getByRole("heading", { name: "Registro de auditoría" }).waitFor();
    expect(await page.evaluate("document.documentElement.lang")).toBe("es");
    await page.getByRole("link", { name: "Aplicaciones" }).click();
    await page.getByRole("columnheader", { name: "Puntos de entrada" }).waitFor();
    await shot(page, "applications-es");
    await context.close();

    const spanish = await signedInContext(browser, token, { locale: "es-ES" });
    const p2 = await spanish.newPage();
    await p2.goto(`${base}/console/users/${user.id}`);
    await p2.getByRole("heading", { name: "Identificadores" }).waitFor();
    await p2.getByRole("button", { name: "Desbloquear cuenta" }).waitFor();
    await shot(p2, "user-es");
    // Errors are the API's own words in the console's language (Accept-Language).
    await p2.goto(`${base}/console/users/999999999`);
    await p2.getByRole("alert").waitFor();
    expect(await p2.getByRole("alert").textContent()).toMatch(/Algo ha fallado/);
    await shot(p2, "error-es");
    await spanish.close();

    const narrow = await signedInContext(browser, token, { width: 390 });
    const p3 = await narrow.newPage();
    await p3.goto(`${base}/console/apps`);
    await p3.getByRole("button", { name: "Menu" }).click();
    await p3.getByRole("link", { name: "Users" }).waitFor();
    await shot(p3, "mobile-menu");
    await narrow.close();
    expect(problems).toEqual([]);
  });
});
