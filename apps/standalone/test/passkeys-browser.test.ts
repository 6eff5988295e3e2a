import type { CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostedBrowser, type HostedBrowser } from "./hosted-browser.ts";
import { shot } from "./hosted-flows.ts";
import { PASSWORD } from "./user-flows.ts";

// Passkeys on the hosted pages (contract section 12) in Chromium, with the
// DevTools protocol's virtual authenticator (a platform authenticator with
// user verification and resident keys): the offer after a password sign-in
// creates a passkey; the login page signs in with it by the button and by
// the autofill (conditional mediation); a refused passkey says so; without
// JavaScript nothing changes. On both stores.
describe.each([
  ["PostgreSQL + Redis", false],
  ["the embedded default", true],
])("passkeys on the hosted pages on %s", (_name, embedded) => {
  let h: HostedBrowser;
  beforeAll(async () => {
    h = await hostedBrowser({ host: "localhost", embedded });
  });
  afterAll(() => h?.close());

  const email = (tag: string) =>
    `${tag}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

  /** A virtual platform authenticator on the page (user-verifying, resident keys, presence simulated). */
  async function authenticator(page: Page): Promise<{ cdp: CDPSession; id: string }> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("WebAuthn.enable", { enableUI: false });
    const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return { cdp, id: authenticatorId };
  }
  const credentials = async (a: { cdp: CDPSession; id: string }) =>
    (await a.cdp.send("WebAuthn.getCredentials", { authenticatorId: a.id })).credentials;

  /** The login page in a JS browser with an authenticator, after the script has reported what the browser can do. */
  async function loginPage(lang: "en" | "es", ep = "checked", extra: Record<string, string> = {}) {
    const flow = await h.open(lang, ep, extra, { js: true });
    const auth = await authenticator(flow.page);
    // Again, now that the authenticator exists: the script's probe sets the cookie the offer needs.
    const again = await h.again(flow.page, ep, extra);
    await expect
      .poll(async () => (await flow.page.context().cookies()).find((c) => c.name === "gh_passkey")?.value)
      .toBe("1");
    return { ...again, auth };
  }

  async function signInWithPassword(page: Page, address: string, lang: "en" | "es") {
    await page.getByLabel(lang === "es" ? "Correo electrónico" : "Email").fill(address);
    await page.getByLabel(lang === "es" ? "Contraseña" : "Password").fill(PASSWORD);
    await Promise.all([
      page.waitForNavigation(),
      page.getByRole("button", { name: lang === "es" ? "Iniciar sesión" : "Sign in", exact: true }).click(),
    ]);
  }

  it.each(["en", "es"] as const)(
    "(%s) offers a passkey after a password sign-in, creates it, then signs in with it from the autofill",
    async (lang) => {
      const address = email(`offer-${lang}`);
      await h.apiUser("checked", address);
      const flow = await loginPage(lang);
      const { page } = flow;
      const passkeyButton = lang === "es" ? "Iniciar sesión con una llave de acceso" : "Sign in with a passkey";
      await expect.poll(() => page.getByRole("button", { name: passkeyButton }).isVisible()).toBe(true);
      const idInput = page.getByLabel(lang === "es" ? "Correo electrónico" : "Email");
      expect(await idInput.getAttribute("autocomplete")).toBe("username webauthn");
      await shot(page, `passkey-login-${lang}`);
      await signInWithPassword(page, address, lang);
      expect(await page.getByRole("heading").textContent()).toBe(
        lang === "es" ? "Crea una llave de acceso" : "Create a passkey",
      );
      await shot(page, `passkey-offer-${lang}`);
      await page
        .getByRole("button", { name: lang === "es" ? "Crear una llave de acceso" : "Create a passkey" })
        .click();
      await h.landed(flow);
      expect(await credentials(flow.auth)).toHaveLength(1);

      // The next sign-in: the login page's conditional request (autofill); the virtual authenticator
      // answers it at once with the passkey it holds (a person picks it among the input's suggestions).
      const next = await h.again(page, "checked");
      await h.landed(next);
      expect((await credentials(flow.auth))[0]!.signCount).toBeGreaterThan(0);
    },
  );

  it("Not now skips the offer; the passkey button signs in; a refused passkey says so and the password still works", async () => {
    const address = email("button");
    await h.apiUser("checked", address);
    const flow = await loginPage("en");
    const { page, auth } = flow;
    await signInWithPassword(page, address, "en");
    await page.getByRole("button", { name: "Not now" }).click();
    await h.landed(flow);
    expect(await credentials(auth)).toHaveLength(0);
    // The offer again at the next password sign-in: now yes.
    const second = await h.again(page, "checked");
    await signInWithPassword(page, address, "en");
    await page.getByRole("button", { name: "Create a passkey" }).click();
    await h.landed(second);
    expect(await credentials(auth)).toHaveLength(1);

    // The button, in a browser without autofill of passkeys (else the virtual authenticator answers
    // the autofill's conditional request first, as the test above shows).
    await page.addInitScript(() => {
      const api = (globalThis as Record<string, any>).PublicKeyCredential;
      api.isConditionalMediationAvailable = () => Promise.resolve(false);
    });
    const third = await h.again(page, "checked");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await h.landed(third);

    // Removed on the server, the passkey is refused like a wrong password: the login page says so (401).
    await h.s.stores.db.query(
      `DELETE FROM users.passkeys WHERE user_id IN
      (SELECT user_id FROM users.identifiers WHERE key = 'email' AND value = $1)`,
      [address],
    );
    const fourth = await h.again(page, "checked");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expect.poll(() => page.getByText("That passkey didn't work", { exact: false }).isVisible()).toBe(true);
    await signInWithPassword(page, address, "en");
    // No passkey left on the server: the offer again.
    expect(await page.getByRole("heading").textContent()).toBe("Create a passkey");
    await page.getByRole("button", { name: "Not now" }).click();
    await h.landed(fourth);
  });

  it("offers a passkey after a hosted registration too", async () => {
    const flow = await loginPage("en", "checked", { prompt: "create" });
    const { page } = flow;
    await page.fill("input[name=email]", email("registered"));
    await page.fill("input[name=name]", "Ana");
    await page.fill("input[name=password]", PASSWORD);
    for (const box of await page.locator("input[type=checkbox]").all()) await box.check();
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Create account" }).click()]);
    expect(await page.getByRole("heading").textContent()).toBe("Create a passkey");
    await page.getByRole("button", { name: "Create a passkey" }).click();
    await h.landed(flow);
    expect(await credentials(flow.auth)).toHaveLength(1);
  });

  it("without JavaScript the login page shows no passkey button and signs in with the password, with no offer", async () => {
    const address = email("nojs");
    await h.apiUser("checked", address);
    const flow = await h.open("en", "checked");
    expect(await flow.page.getByRole("button", { name: "Sign in with a passkey" }).isVisible()).toBe(false);
    await signInWithPassword(flow.page, address, "en");
    await h.landed(flow);
  });
});
