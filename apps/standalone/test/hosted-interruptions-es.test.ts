import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostedBrowser, type HostedBrowser } from "./hosted-browser.ts";
import { outboxMessage } from "./hosted-flows.ts";
import { PASSWORD } from "./user-flows.ts";

// The interruptions of the hosted login as pages (contract section 8), in
// Spanish, in Chromium with JavaScript off: 412 (the confirmation code), 206
// with fca (the missing mandatory data) and 451 after a code sign-in (the
// same interruptions as the password). A rejected page answers 400 with the
// error in Spanish next to its input. (hosted-pages.test.ts has the English
// 412 and 206, and 428 and 451 after a password in Spanish.)
describe("hosted interruption pages in Spanish", () => {
  let h: HostedBrowser;
  beforeAll(async () => {
    h = await hostedBrowser();
  });
  afterAll(() => h?.close());

  const email = (tag: string) =>
    `${tag}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

  /** Signs in with the password on the Spanish login page of an entry point. */
  async function signIn(ep: string, address: string) {
    const flow = await h.open("es", ep);
    await flow.page.getByLabel("Correo electrónico").fill(address);
    await flow.page.getByLabel("Contraseña").fill(PASSWORD);
    expect((await h.submit(flow.page, "Iniciar sesión"))?.status()).toBe(200);
    return flow;
  }

  it("412 (es): the code page; a wrong code is 400 with its error next to the input; a new code; the right one continues", async () => {
    const address = email("unconfirmed");
    await h.apiUser("shop", address);
    const flow = await signIn("shop", address);
    const { page } = flow;
    expect(await page.getByRole("heading").textContent()).toBe("Confirma tu correo electrónico");
    expect(await page.locator(".lead").textContent()).toContain(address);
    await page.getByLabel("Código de 6 cifras").fill("000000");
    expect((await h.submit(page, "Continuar"))?.status()).toBe(400);
    expect(await page.locator("#code-error").textContent()).toBe(
      "Ese código no es correcto o ha caducado. Revísalo o pide uno nuevo.",
    );
    expect(await page.getByLabel("Código de 6 cifras").getAttribute("aria-describedby")).toContain("code-error");
    const asked = Date.now();
    await h.submit(page, "Enviar un código nuevo");
    expect(await page.getByRole("status").textContent()).toContain("Te hemos enviado un código nuevo");
    const { code } = await outboxMessage(h.s, address, /Tu código de confirmación|Your confirmation code/, asked);
    await page.getByLabel("Código de 6 cifras").fill(code);
    await page.getByRole("button", { name: "Continuar", exact: true }).click();
    await h.landed(flow);
  });

  it("206 (es): the missing mandatory data, required; left empty it is 400 with the error next to it; filled in it continues", async () => {
    const address = email("missing");
    await h.apiUser("checked", address);
    // `checked` does not confirm the email (no code was sent); `steps` does, and asks the birthday too, which this user never gave.
    const flow = await signIn("steps", address);
    const { page } = flow;
    expect(await page.getByRole("heading").textContent()).toBe("Confirma tu correo electrónico");
    // The 412 page sent the code it asks for, in Spanish.
    const { code } = await outboxMessage(h.s, address, /Tu código de confirmación/);
    await page.getByLabel("Código de 6 cifras").fill(code);
    expect((await h.submit(page, "Continuar"))?.status()).toBe(200);
    expect(await page.getByRole("heading").textContent()).toBe("Completa tu perfil");
    const inputs = await page
      .locator("form input:not([type=hidden])")
      .evaluateAll((els) => els.map((e) => [e.getAttribute("name"), e.hasAttribute("required")]));
    expect(inputs).toEqual([["birthday", true]]);
    await page.locator("form").evaluate((f) => f.setAttribute("novalidate", ""));
    expect((await h.submit(page, "Continuar"))?.status()).toBe(400);
    expect(await page.locator("#birthday-error").textContent()).toBe("Este campo es obligatorio.");
    expect(await page.getByRole("alert").textContent()).toContain("Fecha de nacimiento: Este campo es obligatorio.");
    await page.getByLabel("Fecha de nacimiento").fill("1985-11-30");
    await page.getByRole("button", { name: "Continuar", exact: true }).click();
    await h.landed(flow);
  });

  it("451 after a code sign-in (es): the assertion to accept; checked, the code for the client", async () => {
    const address = email("terms");
    await h.apiUser("checked", address, { datas: { name: "Lucía" }, terms: false });
    const flow = await h.open("es", "checked");
    const { page } = flow;
    await page.getByLabel("Correo electrónico").fill(address);
    const asked = Date.now();
    await h.submit(page, "Envíame un código por correo");
    expect(await page.getByRole("heading").textContent()).toBe("Revisa tu correo");
    const { code } = await outboxMessage(h.s, address, /inicio de sesión|sign-in/, asked);
    await page.getByLabel("Código de 6 cifras").fill(code);
    await page.getByLabel("Nombre").fill("Lucía");
    expect((await h.submit(page, "Iniciar sesión"))?.status()).toBe(200);
    expect(await page.getByRole("heading").textContent()).toBe("Revisa y acepta");
    const box = page.locator(`input[name="assertion.${h.app.terms}"]`);
    expect(await box.getAttribute("required")).not.toBeNull();
    await page.getByLabel(/Acepto las Condiciones del servicio/).check();
    await page.getByRole("button", { name: "Aceptar y continuar" }).click();
    await h.landed(flow);
  });
});
