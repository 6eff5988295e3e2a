import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, audit } from "./admin-flows.ts";
import { launchConsoleBrowser, shot, signedInContext, watchProblems } from "./console-page.ts";
import { listeningStack } from "./rp-helpers.ts";
import type { TestStack } from "./stack-helpers.ts";
import { createApp, type FlowApp } from "./user-flows.ts";

// The identity providers an entry point offers (contract sections 6 and 11),
// chosen in the console's entry-point editor in Chromium against a real stack:
// tick a configured provider, save through the admin entry-point endpoint,
// untick, save; a provider gone before saving shows the API's 400 in the
// editor; English and Spanish. Presets need no upstream (fixed endpoints).
// CONSOLE_SCREENSHOTS=<dir> keeps the pictures.

describe("the console's entry-point editor: identity providers", () => {
  let s: TestStack;
  let base: string;
  let app: FlowApp;
  let token: string;
  let browser: Browser;

  const provider = async (key: string, preset: string) => {
    const body = { key, preset, clientId: `${key}-client`, clientSecret: `${key}-secret` };
    expect((await admin(s, "POST", "/admin/v1/identity-providers", { body })).statusCode).toBe(201);
  };
  const offered = async () => {
    const content = (await admin(s, "GET", `/admin/v1/apps/${app.id}`, { scope: "admin:read" })).json().content;
    const ep = content.entrypoints.find((e: { id: string }) => e.id === app.entrypoint);
    return ep.identityProviders as string[] | undefined;
  };
  const open = async (locale?: string): Promise<{ page: Page; problems: string[] }> => {
    const page = await (await signedInContext(browser, token, locale ? { locale } : {})).newPage();
    const problems = watchProblems(page);
    await page.goto(`${base}/console/apps/${app.id}`);
    return { page, problems };
  };

  beforeAll(async () => {
    ({ s, base } = await listeningStack({}));
    app = await createApp(s, "idpshop");
    await provider("gh", "github");
    await provider("fb", "facebook");
    token = await s.operatorToken("admin");
    browser = await launchConsoleBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it("ticks a provider and saves it (identityProviders [key]); unticks and saves: none again (en)", async () => {
    const { page, problems } = await open();
    const card = page.getByRole("article", { name: "Web sign-up" });
    // The card shows what the application's reload brought, a moment after the editor closes.
    const shown = () => card.locator("dl > div", { hasText: "Identity providers" }).locator("dd").textContent();
    await expect.poll(shown).toBe("None");
    await card.getByRole("button", { name: "Edit entry point: Web sign-up" }).click();
    const github = card.getByLabel("GitHub (gh)");
    expect(await github.isChecked()).toBe(false);
    expect(await card.getByLabel("Facebook (fb)").isChecked()).toBe(false);
    await github.check();
    await shot(page, "ep-providers-edit-en");
    await card.getByRole("button", { name: "Save" }).click();
    await expect.poll(shown).toBe("GitHub (gh)");
    await shot(page, "ep-providers-view-en");
    expect(await offered()).toEqual(["gh"]);

    await card.getByRole("button", { name: "Edit entry point: Web sign-up" }).click();
    expect(await github.isChecked()).toBe(true);
    await github.uncheck();
    await card.getByRole("button", { name: "Save" }).click();
    await expect.poll(shown).toBe("None");
    expect(await offered()).toBeUndefined();
    const updates = await audit(s, { target: app.entrypoint, action: "entrypoint.update" });
    expect(updates).toHaveLength(2);
    expect(problems).toEqual([]);
  });

  it("a provider deleted before saving: the API's 400 names the field in the editor, nothing saved (es)", async () => {
    const { page, problems } = await open("es-ES");
    const card = page.getByRole("article", { name: "Web sign-up" });
    await card.getByRole("button", { name: "Editar punto de entrada: Web sign-up" }).click();
    await card.getByRole("group", { name: "Proveedores de identidad" }).waitFor();
    await card.getByLabel("Facebook (fb)").check();
    await shot(page, "ep-providers-edit-es");
    expect((await admin(s, "DELETE", "/admin/v1/identity-providers/fb")).statusCode).toBe(204);
    await card.getByRole("button", { name: "Guardar" }).click();
    const alert = card.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toContain("identityProviders.0");
    await shot(page, "ep-providers-error-es");
    expect(await offered()).toBeUndefined();
    // Still editing: the operator can untick it and save.
    await card.getByLabel("Facebook (fb)").uncheck();
    await card.getByRole("button", { name: "Guardar" }).click();
    await card.getByRole("button", { name: "Editar punto de entrada: Web sign-up" }).waitFor();
    expect(await offered()).toBeUndefined();
    expect(problems).toEqual([]);
  });

  it("without a configured provider the editor points to the Identity providers screen (en)", async () => {
    expect((await admin(s, "DELETE", "/admin/v1/identity-providers/gh")).statusCode).toBe(204);
    const { page, problems } = await open();
    const card = page.getByRole("article", { name: "Web sign-up" });
    await card.getByRole("button", { name: "Edit entry point: Web sign-up" }).click();
    const group = card.getByRole("group", { name: "Identity providers" });
    await group.getByText("No identity provider is configured yet:").waitFor();
    await group.getByRole("link", { name: "Identity providers" }).click();
    await page.waitForURL(`${base}/console/identity-providers`);
    expect(problems).toEqual([]);
  });
});
