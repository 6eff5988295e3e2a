import { startUpstreamIdp, type UpstreamIdp } from "@gatehouse/testing/upstream-idp";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, audit, OPERATOR_ACTOR } from "./admin-flows.ts";
import { launchConsoleBrowser, shot, signedInContext, watchProblems } from "./console-page.ts";
import { listeningStack } from "./rp-helpers.ts";
import { codeOf, socialSignIn } from "./social-flows.ts";
import type { TestStack } from "./stack-helpers.ts";
import { createApp } from "./user-flows.ts";

// The console's identity providers screen (contract section 11) in Chromium:
// an operator registers a REAL OpenID Connect issuer (oidc-provider on
// loopback) through the form, sees it listed without its secret, edits it,
// and removes a user's link to it from the user's page, in English and
// Spanish. CONSOLE_SCREENSHOTS=<dir> keeps the pictures.

describe("the console's identity providers", () => {
  let s: TestStack;
  let base: string;
  let idp: UpstreamIdp;
  let browser: Browser;
  let token: string;

  beforeAll(async () => {
    ({ s, base } = await listeningStack({}));
    idp = await startUpstreamIdp([`${base}/oauth2/idp/callback`]);
    token = await s.operatorToken("admin");
    browser = await launchConsoleBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await idp?.close();
  });

  it("adds an OIDC provider through the form (en), lists it without its secret (es)", async () => {
    const page = await (await signedInContext(browser, token)).newPage();
    const problems = watchProblems(page);
    await page.goto(`${base}/console/identity-providers`);
    await expect(page.getByText(`${base}/oauth2/idp/callback`)).toBeDefined();
    await page.getByRole("button", { name: "+ Add provider" }).click();
    await page.getByLabel("Key").fill("acme");
    await page.getByLabel("Button name").fill("ACME ID");
    await page.getByLabel("Issuer").fill(idp.issuer);
    await page.getByLabel("Client ID").fill(idp.clientId);
    await page.getByLabel("Client secret").fill(idp.clientSecret);
    await page.getByLabel(/Trust its verified emails/).check();
    await shot(page, "providers-add-en");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("“acme” added.", { exact: false }).waitFor();
    await shot(page, "providers-en");
    expect(await page.content()).not.toContain(idp.clientSecret);
    expect((await audit(s, { target: "acme" })).map((e) => e.action)).toEqual(["identity_provider.create"]);

    const es = await (await signedInContext(browser, token, { locale: "es-ES" })).newPage();
    await es.goto(`${base}/console/identity-providers`);
    await es.getByRole("cell", { name: "ACME ID" }).waitFor();
    expect(await es.getByRole("heading", { level: 1 }).textContent()).toBe("Proveedores de identidad");
    await shot(es, "providers-es");
    expect(problems).toEqual([]);
  });

  it("edits the provider: what changed is saved, a new secret stays hidden, the key and type stay (en, es)", async () => {
    const page = await (await signedInContext(browser, token)).newPage();
    const problems = watchProblems(page);
    await page.goto(`${base}/console/identity-providers`);
    await page.getByRole("button", { name: "Edit acme" }).click();
    expect(await page.getByLabel("Issuer").inputValue()).toBe(idp.issuer);
    expect(await page.getByLabel("New client secret").inputValue()).toBe("");
    await page.getByLabel("Button name").fill("ACME Login");
    await page.getByLabel("Scopes").fill("openid profile email");
    await page.getByLabel(/Trust its verified emails/).uncheck();
    await page.getByLabel("New client secret").fill(idp.clientSecret);
    await shot(page, "providers-edit-en");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("“acme” saved.").waitFor();
    await page.getByRole("cell", { name: "ACME Login" }).waitFor();
    expect(await page.content()).not.toContain(idp.clientSecret);
    const saved = (await admin(s, "GET", "/admin/v1/identity-providers/acme")).json().content;
    expect(saved).toMatchObject({
      key: "acme",
      type: "oidc",
      displayName: "ACME Login",
      scopes: ["openid", "profile", "email"],
      trustEmail: false,
      hasClientSecret: true,
    });
    const updates = (await audit(s, { target: "acme" })).filter((e) => e.action === "identity_provider.update");
    expect(updates).toHaveLength(1);
    expect(JSON.stringify(updates)).not.toContain(idp.clientSecret);

    const es = await (await signedInContext(browser, token, { locale: "es-ES" })).newPage();
    await es.goto(`${base}/console/identity-providers`);
    await es.getByRole("button", { name: "Editar acme" }).click();
    await es.getByLabel("Nuevo secreto de cliente").waitFor();
    await shot(es, "providers-edit-es");
    await es.getByRole("button", { name: "Cancelar" }).click();
    expect(problems).toEqual([]);
  });

  it("the user's page removes a linked provider after a confirmation (es, en): the audited admin unlink", async () => {
    const app = await createApp(s, "shop", (b) => (b.entrypoints[0].identityProviders = ["acme"]));
    const who = `ana${Date.now().toString(36)}`;
    const email = `${who}@example.com`;
    idp.accounts.set(who, { email, email_verified: true, given_name: "Ana", family_name: "Gil" });
    const callback = `${base}/oauth2/idp/callback`;
    codeOf((await socialSignIn(s, app, app.entrypoint, "acme", who, { callback })).res);
    const found = await admin(s, "GET", `/admin/v1/users?q=${encodeURIComponent(email)}`, { scope: "admin:read" });
    const id = String(found.json().content.items[0].id);

    const es = await (await signedInContext(browser, token, { locale: "es-ES" })).newPage();
    const problems = watchProblems(es);
    await es.goto(`${base}/console/users/${id}`);
    await es.getByRole("button", { name: "Quitar acme" }).click();
    await es.getByRole("dialog").getByText("¿Quitar la vinculación con “acme”?").waitFor();
    await shot(es, "user-identity-remove-es");
    await es.getByRole("button", { name: "Cancelar" }).click();

    const page = await (await signedInContext(browser, token)).newPage();
    await page.goto(`${base}/console/users/${id}`);
    await page.getByRole("button", { name: "Remove acme" }).waitFor();
    await shot(page, "user-identities-en");
    await page.getByRole("button", { name: "Remove acme" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Remove", exact: true }).click();
    await page.getByText("The link to “acme” was removed.").waitFor();
    await shot(page, "user-identity-removed-en");
    expect(await page.getByRole("button", { name: "Remove acme" }).count()).toBe(0);
    const user = (await admin(s, "GET", `/admin/v1/users/${id}`, { scope: "admin:read" })).json().content.user;
    expect(user.identities).toEqual([]);
    const entries = await audit(s, { target: id, action: "user.identity.unlink" });
    expect(entries).toMatchObject([{ actor: OPERATOR_ACTOR, details: { provider: "acme" } }]);
    expect(problems).toEqual([]);
  });
});
