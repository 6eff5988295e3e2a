import { startUpstreamIdp, type UpstreamIdp } from "@gatehouse/testing/upstream-idp";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit } from "./admin-flows.ts";
import { launchConsoleBrowser, shot, signedInContext, watchProblems } from "./console-page.ts";
import { listeningStack } from "./rp-helpers.ts";
import type { TestStack } from "./stack-helpers.ts";

// The console's identity providers screen (contract section 11) in Chromium:
// an operator registers a REAL OpenID Connect issuer (oidc-provider on
// loopback) through the form, sees it listed without its secret, in English
// and Spanish. CONSOLE_SCREENSHOTS=<dir> keeps the pictures.

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
});
