import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostedBrowser, type HostedBrowser } from "./hosted-browser.ts";
import { outboxMessage, shot } from "./hosted-flows.ts";
import { PASSWORD } from "./user-flows.ts";

// Contract section 17 on the hosted pages in Chromium: an application with
// `captcha: "altcha"` gets the ALTCHA widget, which the browser solves (a
// SHA-256 search in a worker served from this origin, under the pages' CSP);
// weak passwords are refused with the page's words, in English and Spanish.
describe("abuse protection on the hosted pages, in Chromium", () => {
  let b: HostedBrowser;
  const violations: string[] = [];
  beforeAll(async () => {
    b = await hostedBrowser();
    const res = await b.s.app.inject({
      method: "PATCH",
      url: `/admin/v1/apps/${b.app.id}`,
      headers: { authorization: `Bearer ${await b.s.operatorToken()}`, "content-type": "application/json" },
      payload: JSON.stringify({ captcha: "altcha" }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().content.captcha).toBe("altcha");
  });
  afterAll(() => b.close());

  const address = (tag: string) =>
    `${tag}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

  /** Submits with the button named `name` and waits for the next page. */
  async function submit(page: Page, name: string) {
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name, exact: true }).click()]);
  }

  /** The widget solved its challenge: its hidden input holds the payload. */
  async function solved(page: Page) {
    // A locator, not a string to evaluate: the page's CSP allows no eval.
    await expect
      .poll(() => page.locator("input[name=altcha]").inputValue(), { timeout: 30_000, interval: 100 })
      .not.toBe("");
  }

  function watchConsole(page: Page) {
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
  }

  it("registration (en): the widget solves itself; a common password is refused on the page; then the account is created", async () => {
    const flow = await b.open("en", "shop", { prompt: "create" }, { js: true });
    const { page } = flow;
    watchConsole(page);
    await solved(page);
    await shot(page, "altcha-register-en");
    const email = address("altcha");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("First name").fill("Ana");
    await page.getByLabel("Password").fill("iloveyou1");
    await page.getByLabel(/I accept the Terms/).check();
    await submit(page, "Create account");
    await shot(page, "password-weak-en");
    expect(await page.locator("#password-error").textContent()).toContain("too easy to guess");
    // The refused form spent its solution; the new page brings a new challenge, solved again.
    await solved(page);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByLabel(/I accept the Terms/).check();
    await submit(page, "Create account");
    expect(await page.getByRole("heading").textContent()).toBe("Confirm your email");
    await outboxMessage(b.s, email, /Confirm/);
    expect(violations).toEqual([]);
  });

  it("registration (es): the same in Spanish, a password holding the email refused", async () => {
    const { page } = await b.open("es", "shop", { prompt: "create" }, { js: true });
    watchConsole(page);
    await solved(page);
    await shot(page, "altcha-register-es");
    const email = address("lucia");
    await page.getByLabel("Correo electrónico").fill(email);
    await page.getByLabel("Nombre", { exact: true }).fill("Lucía");
    await page.getByLabel("Contraseña").fill(`${email.split("@")[0]}!`);
    await page.getByLabel(/Acepto las Condiciones/).check();
    await submit(page, "Crear cuenta");
    await shot(page, "password-weak-es");
    expect(await page.locator("#password-error").textContent()).toContain("demasiado fácil de adivinar");
    expect(violations).toEqual([]);
  });

  it("without JavaScript the page says the check needs it, and a post without a solution creates nothing", async () => {
    const { page } = await b.open("en", "shop", { prompt: "create" });
    await shot(page, "altcha-noscript-en");
    expect(await page.locator("#captcha-noscript").textContent()).toContain("needs JavaScript");
    const email = address("nojs");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("First name").fill("Ana");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByLabel(/I accept the Terms/).check();
    await submit(page, "Create account");
    expect(await page.getByRole("alert").textContent()).toContain("not a robot");
    await shot(page, "altcha-refused-en");
    const { page: es } = await b.open("es", "nopass");
    expect(await es.locator("#captcha-noscript").textContent()).toContain("hace falta JavaScript");
    await shot(es, "altcha-noscript-code-es");
  });

  it("a code request (es) with the widget solved sends the code", async () => {
    const email = address("code");
    await b.apiUser("shop", email);
    const { page } = await b.open("es", "shop", {}, { js: true });
    watchConsole(page);
    await solved(page);
    await page.getByLabel("Correo electrónico").fill(email);
    await submit(page, "Envíame un código por correo");
    await shot(page, "altcha-code-sent-es");
    expect(await page.getByRole("heading").textContent()).toBe("Revisa tu correo");
    await outboxMessage(b.s, email, /\d{6}/);
    expect(violations).toEqual([]);
  });
});
