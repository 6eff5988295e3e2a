import { createServer, type Server } from "node:http";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { totpCode } from "@gatehouse/users";
import { hostedApp, outboxMessage, shot, type HostedApp } from "./hosted-flows.ts";
import { authorizePath, pkce, validAuthorize } from "./oauth-flow.ts";
import { freePort } from "./processes.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { published } from "./terms-flows.ts";
import { PASSWORD, send, SOURCE } from "./user-flows.ts";

// The hosted entry-point pages (contract section 8) in headless Chromium,
// in English and Spanish: registration (one and two steps), code sign-in,
// passwordless, assisted activation, and each interruption page, each
// ending at the application's redirect URI with a code that buys tokens.
// One stack (PostgreSQL + Redis) for the file.

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

describe("hosted entry-point pages in headless Chromium", () => {
  let s: TestStack;
  let base: string;
  let app: HostedApp;
  let browser: Browser;
  let callback: Server;
  let redirectUri: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    s = await startTestStack({ env: { PUBLIC_URL: base, PORT: String(port), HOST: "127.0.0.1" } });
    await s.app.listen({ port, host: "127.0.0.1" });
    callback = createServer((_req, res) =>
      res
        .writeHead(200, { "content-type": "text/html" })
        .end("<!doctype html><title>callback</title><p>back at the application</p>"),
    );
    await new Promise<void>((resolve) => callback.listen(0, "127.0.0.1", resolve));
    redirectUri = `http://127.0.0.1:${(callback.address() as { port: number }).port}/callback`;
    app = await hostedApp(s, ["http://127.0.0.1/callback"]);
    browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await new Promise((r) => callback?.close(r));
    await s?.close();
  });

  /** A phone-sized page (or a desktop one) in a language, at the authorization request of an entry point. */
  async function open(
    lang: "en" | "es",
    ep: string,
    extra: Record<string, string> = {},
    viewport = { width: 390, height: 844 },
  ) {
    const context = await browser.newContext({ viewport, locale: lang === "es" ? "es-ES" : "en-US" });
    contexts.push(context);
    const page = await context.newPage();
    const { verifier, challenge } = pkce();
    const params = validAuthorize(app, challenge, { redirect_uri: redirectUri, entrypoint: app.eps[ep]!, ...extra });
    const res = await page.goto(`${base}${authorizePath(params)}`);
    expect(res?.status()).toBe(200);
    expect(await page.getAttribute("html", "lang")).toBe(lang);
    expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
    return { page, verifier, state: params.state!, clientId: params.client_id! };
  }

  /** Submits with the button named `name` and waits for the next page. */
  async function submit(page: Page, name: string) {
    await Promise.all([
      page.waitForLoadState("load"),
      page.waitForNavigation(),
      page.getByRole("button", { name, exact: true }).click(),
    ]);
  }

  /** The page landed on the redirect URI: the code buys tokens with the verifier. */
  async function landed(page: Page, flow: { verifier: string; state: string; clientId?: string }) {
    await page.waitForURL((u) => u.pathname === "/callback");
    const back = new URL(page.url());
    expect(back.searchParams.get("state")).toBe(flow.state);
    // The application authenticates with its secret; a public client (an entry point id) names itself only.
    const publicClient = flow.clientId !== undefined && flow.clientId !== app.id;
    const res = await fetch(`${base}/oauth2/token`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        ...(publicClient ? {} : { authorization: s.basic(app.id, app.password) }),
      },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: back.searchParams.get("code")!,
        redirect_uri: redirectUri,
        code_verifier: flow.verifier,
        ...(publicClient ? { client_id: flow.clientId! } : {}),
      }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { access_token: string; id_token: string };
  }

  const email = (tag: string) =>
    `${tag}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

  it("one-step registration (es): errors next to their inputs, values kept but the password; the code page; then the code", async () => {
    const flow = await open("es", "shop", { prompt: "create" });
    const { page } = flow;
    await shot(page, "register-es");
    expect(await page.getByRole("heading").textContent()).toBe("Crea tu cuenta");
    const names = await page
      .locator("form input:not([type=hidden])")
      .evaluateAll((els) => els.map((e) => e.getAttribute("name")));
    expect(names).toEqual(["email", "phone_number", "name", "surname", "password", `assertion.${app.terms}`]);
    expect(await page.locator("#email").getAttribute("type")).toBe("email");
    expect(await page.locator("#phone_number").getAttribute("type")).toBe("tel");
    expect(await page.locator("#surname").getAttribute("required")).toBeNull();
    expect(await page.locator("#name").getAttribute("required")).toBe("");

    const address = email("ana");
    await page.getByLabel("Correo electrónico").fill(address);
    await page.getByLabel("Nombre", { exact: true }).fill("Ana");
    await page.getByLabel("Contraseña").fill("short");
    // The browser's own checks are off for this submission: the server's answer is under test.
    await page.locator("form").evaluate((f) => f.setAttribute("novalidate", ""));
    await submit(page, "Crear cuenta");
    await shot(page, "register-errors-es");
    expect(await page.getByRole("alert").textContent()).toContain("Hay un problema");
    expect(await page.locator("#password").getAttribute("aria-describedby")).toContain("password-error");
    expect(await page.locator("#password").getAttribute("aria-invalid")).toBe("true");
    // The first input in error has the focus; the keyboard goes on from there.
    expect(await page.evaluate("document.activeElement.id")).toBe("password");
    expect(await page.locator("#password-error").textContent()).toBe("Usa al menos 8 caracteres.");
    expect(await page.locator(`#assertion-${app.terms}-error`).textContent()).toBe("Debes aceptarlo para continuar.");
    expect(await page.locator("#email").inputValue()).toBe(address);
    expect(await page.locator("#name").inputValue()).toBe("Ana");
    expect(await page.locator("#password").inputValue()).toBe("");

    await page.getByLabel("Contraseña").fill(PASSWORD);
    await page.getByLabel(/Acepto las Condiciones/).check();
    await submit(page, "Crear cuenta");
    await shot(page, "confirm-code-es");
    expect(await page.getByRole("heading").textContent()).toBe("Confirma tu correo electrónico");
    await page.getByLabel("Código de 6 cifras").fill("000000");
    await submit(page, "Continuar");
    expect(await page.locator("#code-error").textContent()).toContain("no es correcto");
    const { code } = await outboxMessage(s, address, /Confirma tu cuenta/);
    await page.getByLabel("Código de 6 cifras").fill(code);
    await page.getByRole("button", { name: "Continuar" }).click();
    await landed(page, flow);
  });

  /** A user registered by the application (the API) through an entry point, with the mandatory terms accepted. */
  async function apiUser(
    ep: string,
    address: string,
    opts: { password?: boolean; datas?: Record<string, string> } = {},
  ) {
    const datas = Object.fromEntries(
      Object.entries(opts.datas ?? { name: "Ana" }).map(([k, value]) => [k, { objectType: "data", value }]),
    );
    const object = {
      objectType: "user",
      ...(opts.password === false ? {} : { password: PASSWORD }),
      ids: { email: { objectType: "user_id", value: address } },
      datas,
      assertions: { [app.terms]: { objectType: "assertion", value: true } },
    };
    const res = await send(s, "POST", "/activityid/v1/user/register", app.token, app.eps[ep]!, {
      actor: { id: app.id, objectType: "application" },
      verb: "create",
      object,
      source: SOURCE,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().content.user as { id: number };
  }

  /** Confirms a user's email by the link of the registration message. */
  async function confirmByLink(address: string) {
    const msg = await outboxMessage(s, address, /Confirm your account|Confirma tu cuenta/);
    const res = await fetch(msg.link!, { redirect: "manual" });
    expect(res.status).toBe(302);
  }

  it("two-step registration (en): step 1 registers, step 2 asks its fields, the code confirms, then the code for the client", async () => {
    const flow = await open("en", "steps", { prompt: "create" });
    const { page } = flow;
    expect(await page.locator(".steps").textContent()).toBe("Step 1 of 2");
    const names = await page
      .locator("form input:not([type=hidden])")
      .evaluateAll((els) => els.map((e) => e.getAttribute("name")));
    expect(names).toEqual(["email", "name", "password", `assertion.${app.terms}`]);
    const address = email("two");
    await page.getByLabel("Email").fill(address);
    await page.getByLabel("First name").fill("Tom");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByLabel(/I accept the Terms/).check();
    await submit(page, "Continue");
    await shot(page, "register-step2-en");
    expect(await page.locator(".steps").textContent()).toBe("Step 2 of 2");
    expect(await page.locator("#birthday").getAttribute("type")).toBe("date");
    expect(await page.locator("#birthday").getAttribute("required")).toBe("");
    expect(await page.locator("#gender").getAttribute("required")).toBeNull();
    await page.getByLabel("Date of birth").fill("1990-05-17");
    await submit(page, "Create account");
    await shot(page, "confirm-code-en");
    expect(await page.getByRole("heading").textContent()).toBe("Confirm your email");
    const { code } = await outboxMessage(s, address, /Confirm your account/);
    await page.getByLabel("6-digit code").fill(code);
    await page.getByRole("button", { name: "Continue" }).click();
    const tokens = await landed(page, flow);
    expect(tokens.id_token).toBeTruthy();
    const user = await s.stores.db.query<{ datas: Record<string, string> }>(
      "SELECT u.datas FROM users.users u JOIN users.identifiers i ON i.user_id = u.id WHERE i.value = $1",
      [address],
    );
    expect(user.rows[0]!.datas).toMatchObject({ name: "Tom", birthday: "1990-05-17" });
  });

  it("code sign-in (en): the login page's second button emails a code; the code page signs in", async () => {
    const address = email("code");
    await apiUser("shop", address);
    await confirmByLink(address);
    const flow = await open("en", "shop");
    const { page } = flow;
    await shot(page, "login-en");
    expect(await page.getByRole("heading").textContent()).toBe("Sign in");
    await page.getByLabel("Email").fill(address);
    const asked = Date.now();
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Email me a code" }).click()]);
    await shot(page, "code-en");
    expect(await page.getByRole("heading").textContent()).toBe("Check your email");
    const { code } = await outboxMessage(s, address, /Your sign-in code/, asked);
    await page.getByLabel("6-digit code").fill(code);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await landed(page, flow);
  });

  it("code sign-in with useForValidation (es): the code page asks the name too; a wrong one fails like a wrong code", async () => {
    const address = email("check");
    await apiUser("checked", address, { datas: { name: "Lucía" } });
    const flow = await open("es", "checked");
    const { page } = flow;
    await page.getByLabel("Correo electrónico").fill(address);
    const asked = Date.now();
    await Promise.all([
      page.waitForNavigation(),
      page.getByRole("button", { name: "Envíame un código por correo" }).click(),
    ]);
    const { code } = await outboxMessage(s, address, /inicio de sesión/, asked);
    await page.getByLabel("Código de 6 cifras").fill(code);
    await page.getByLabel("Nombre").fill("Lucas");
    await submit(page, "Iniciar sesión");
    await shot(page, "code-validation-es");
    expect(await page.getByRole("alert").textContent()).toContain("no son correctos");
    expect(await page.locator("#name").inputValue()).toBe("Lucas");
    await page.getByLabel("Código de 6 cifras").fill(code);
    await page.getByLabel("Nombre").fill("lucía");
    await page.getByRole("button", { name: "Iniciar sesión", exact: true }).click();
    await landed(page, flow);
  });

  it("passwordless (en): registration without a password, the confirmation code signs in; later sign-ins by code", async () => {
    const first = await open("en", "nopass", { prompt: "create" });
    const page = first.page;
    expect(await page.locator("input[type=password]").count()).toBe(0);
    const address = email("nopass");
    await page.getByLabel("Email").fill(address);
    await page.getByLabel("First name").fill("Noa");
    await page.getByLabel(/I accept the Terms/).check();
    await submit(page, "Create account");
    const { code } = await outboxMessage(s, address, /Confirm your account/);
    await page.getByLabel("6-digit code").fill(code);
    await page.getByRole("button", { name: "Continue" }).click();
    await landed(page, first);

    const again = await open("en", "nopass");
    await shot(again.page, "login-passwordless-en");
    expect(await again.page.locator("input[type=password]").count()).toBe(0);
    await again.page.getByLabel("Email").fill(address);
    const asked = Date.now();
    await Promise.all([
      again.page.waitForNavigation(),
      again.page.getByRole("button", { name: "Email me a code" }).click(),
    ]);
    const signIn = await outboxMessage(s, address, /Your sign-in code/, asked);
    await again.page.getByLabel("6-digit code").fill(signIn.code);
    await again.page.getByRole("button", { name: "Sign in", exact: true }).click();
    await landed(again.page, again);
  });

  it("a public client (an entry point id as client_id): registration and code sign-in as its application; login_hint prefills an email main id only", async () => {
    const client = app.eps.nopass!;
    const address = email("public");
    const reg = await open("en", "nopass", { client_id: client, prompt: "create" });
    await reg.page.getByLabel("Email").fill(address);
    await reg.page.getByLabel("First name").fill("Pia");
    await reg.page.getByLabel(/I accept the Terms/).check();
    await submit(reg.page, "Create account");
    const { code } = await outboxMessage(s, address, /Confirm your account/);
    await reg.page.getByLabel("6-digit code").fill(code);
    await reg.page.getByRole("button", { name: "Continue" }).click();
    await landed(reg.page, reg);

    const hinted = await open("en", "nopass", { client_id: client, login_hint: address });
    expect(await hinted.page.locator("#email").inputValue()).toBe(address);
    // The links that start over (registration, the other language) keep the hint.
    expect(await hinted.page.locator(".foot a").getAttribute("href")).toContain(
      `login_hint=${encodeURIComponent(address)}`,
    );
    const asked = Date.now();
    await Promise.all([
      hinted.page.waitForNavigation(),
      hinted.page.getByRole("button", { name: "Email me a code" }).click(),
    ]);
    const signIn = await outboxMessage(s, address, /Your sign-in code/, asked);
    await hinted.page.getByLabel("6-digit code").fill(signIn.code);
    await hinted.page.getByRole("button", { name: "Sign in", exact: true }).click();
    const tokens = await landed(hinted.page, hinted);
    const claims = JSON.parse(Buffer.from(tokens.access_token.split(".")[1]!, "base64url").toString()) as Record<
      string,
      unknown
    >;
    expect(claims).toMatchObject({ client_id: client, app_id: app.id });

    // The hint is an email: a phone main id is left empty.
    const phone = await open("en", "mobile", { login_hint: address });
    expect(await phone.page.locator("#phone_number").inputValue()).toBe("");
  });

  it("assisted (es): no registration form; 412 until the activation page sets the password (once); then the password signs in", async () => {
    const reg = await open("es", "assisted", { prompt: "create" });
    await shot(reg.page, "register-assisted-es");
    expect(await reg.page.locator("form").count()).toBe(0);
    expect(await reg.page.getByRole("heading").textContent()).toBe("Las cuentas las crea Northwind Outfitters");

    const address = email("assisted");
    await apiUser("assisted", address, { password: false });
    const early = await open("es", "assisted");
    await early.page.getByLabel("Correo electrónico").fill(address);
    await early.page.getByLabel("Contraseña").fill("anything at all");
    await submit(early.page, "Iniciar sesión");
    await shot(early.page, "login-activation-es");
    expect(await early.page.getByRole("heading").textContent()).toBe("Activa tu cuenta");

    const { link } = await outboxMessage(s, address, /Activa tu cuenta/);
    expect(link).toMatch(new RegExp(`^${base}/activityid/v1/user/activate\\?token=[^&]+&ui_locales=es$`));
    const page = early.page;
    expect((await page.goto(link!))?.status()).toBe(200);
    await shot(page, "activate-es");
    expect(await page.locator("#username").inputValue()).toBe(address);
    await page.getByLabel("Contraseña").fill("short");
    await page.locator("form").evaluate((f) => f.setAttribute("novalidate", ""));
    await submit(page, "Activar cuenta");
    expect(await page.locator("#password-error").textContent()).toBe("Usa al menos 8 caracteres.");
    await page.getByLabel("Contraseña").fill(PASSWORD);
    await submit(page, "Activar cuenta");
    await shot(page, "activated-es");
    expect(await page.getByRole("heading").textContent()).toBe("Tu cuenta está lista");
    expect((await page.goto(link!))?.status()).toBe(400);

    const after = await open("es", "assisted");
    await after.page.getByLabel("Correo electrónico").fill(address);
    await after.page.getByLabel("Contraseña").fill(PASSWORD);
    await after.page.getByRole("button", { name: "Iniciar sesión", exact: true }).click();
    await landed(after.page, after);
  });

  it("412 page (en): an unconfirmed user signs in, gets the code page, asks for a new code, and continues with it", async () => {
    const address = email("unconfirmed");
    await apiUser("shop", address);
    const flow = await open("en", "shop");
    await flow.page.getByLabel("Email").fill(address);
    await flow.page.getByLabel("Password").fill(PASSWORD);
    await submit(flow.page, "Sign in");
    await shot(flow.page, "login-412-en");
    expect(await flow.page.getByRole("heading").textContent()).toBe("Confirm your email");
    expect(await flow.page.locator(".lead").textContent()).toContain(address);
    const asked = Date.now();
    await Promise.all([
      flow.page.waitForNavigation(),
      flow.page.getByRole("button", { name: "Send a new code" }).click(),
    ]);
    expect(await flow.page.getByRole("status").textContent()).toContain("We sent a new code");
    const { code } = await outboxMessage(s, address, /Your confirmation code/, asked);
    await flow.page.getByLabel("6-digit code").fill(code);
    await flow.page.getByRole("button", { name: "Continue" }).click();
    await landed(flow.page, flow);
  });

  it("428 page (es): the TOTP code of a user with MFA on", async () => {
    const address = email("mfa");
    await apiUser("shop", address);
    await confirmByLink(address);
    const login = await send(s, "POST", "/activityid/v1/user/access", app.token, app.eps.shop!, {
      actor: { id: app.id, objectType: "application" },
      verb: "access",
      object: { objectType: "user", password: PASSWORD, ids: { email: { objectType: "user_id", value: address } } },
      source: SOURCE,
    });
    const token = login.json().content.session_info.access_token as string;
    const secret = (await send(s, "POST", "/activityid/v1/user/mfa/totp", token, app.eps.shop!, {})).json().content.totp
      .secret as string;
    expect(
      (
        await send(s, "POST", "/activityid/v1/user/mfa/totp/confirm", token, app.eps.shop!, {
          code: totpCode(secret, Date.now() - 30_000),
        })
      ).statusCode,
    ).toBe(200);
    const flow = await open("es", "shop");
    await flow.page.getByLabel("Correo electrónico").fill(address);
    await flow.page.getByLabel("Contraseña").fill(PASSWORD);
    await submit(flow.page, "Iniciar sesión");
    await shot(flow.page, "mfa-es");
    expect(await flow.page.getByRole("heading").textContent()).toBe("Verificación en dos pasos");
    await flow.page.getByLabel("Código de verificación").fill(totpCode(secret));
    await flow.page.getByRole("button", { name: "Verificar" }).click();
    await landed(flow.page, flow);
  });

  it("206 page (en): a user missing the entry point's mandatory data fills it in, then gets the code", async () => {
    const address = email("missing");
    await apiUser("shop", address);
    await confirmByLink(address);
    const flow = await open("en", "steps");
    await flow.page.getByLabel("Email").fill(address);
    await flow.page.getByLabel("Password").fill(PASSWORD);
    await submit(flow.page, "Sign in");
    await shot(flow.page, "profile-en");
    expect(await flow.page.getByRole("heading").textContent()).toBe("Complete your profile");
    const names = await flow.page
      .locator("form input:not([type=hidden])")
      .evaluateAll((els) => els.map((e) => e.getAttribute("name")));
    expect(names).toEqual(["birthday"]);
    await flow.page.getByLabel("Date of birth").fill("1985-11-30");
    await flow.page.getByRole("button", { name: "Continue" }).click();
    await landed(flow.page, flow);
  });

  it("a main phone (en): the login page asks for the mobile and texts a code; registration confirms it by SMS code", async () => {
    const reg = await open("en", "mobile", { prompt: "create" });
    const phone = `+3461${String(Date.now()).slice(-7)}`;
    await reg.page.getByLabel("Mobile phone").fill(phone);
    await reg.page.getByLabel(/I accept the Terms/).check();
    await submit(reg.page, "Create account");
    expect(await reg.page.getByRole("heading").textContent()).toBe("Confirm your phone number");
    const { code } = await outboxMessage(s, phone, /confirmation code/);
    await reg.page.getByLabel("6-digit code").fill(code);
    await reg.page.getByRole("button", { name: "Continue" }).click();
    await landed(reg.page, reg);

    const flow = await open("en", "mobile");
    await shot(flow.page, "login-phone-en");
    expect(await flow.page.locator("#phone_number").getAttribute("type")).toBe("tel");
    await flow.page.getByLabel("Mobile phone").fill(phone);
    const asked = Date.now();
    await Promise.all([
      flow.page.waitForNavigation(),
      flow.page.getByRole("button", { name: "Text me a code" }).click(),
    ]);
    expect(await flow.page.getByRole("heading").textContent()).toBe("Check your phone");
    const sms = await outboxMessage(s, phone, /sign-in code/, asked);
    await flow.page.getByLabel("6-digit code").fill(sms.code);
    await flow.page.getByRole("button", { name: "Sign in", exact: true }).click();
    await landed(flow.page, flow);
  });

  it("the pages JSON answers link to (en): resend (412), confirmed, and the terms page (451) share the look", async () => {
    const address = email("json");
    const object = {
      objectType: "user",
      password: PASSWORD,
      ids: { email: { objectType: "user_id", value: address } },
      datas: { name: { objectType: "data", value: "Ana" } },
      assertions: {},
    };
    await send(s, "POST", "/activityid/v1/user/register", app.token, app.eps.shop!, {
      actor: { id: app.id, objectType: "application" },
      verb: "create",
      object,
      source: SOURCE,
    });
    const jsonLogin = () =>
      send(s, "POST", "/activityid/v1/user/access", app.token, app.eps.shop!, {
        actor: { id: app.id, objectType: "application" },
        verb: "access",
        object: { objectType: "user", password: PASSWORD, ids: { email: { objectType: "user_id", value: address } } },
        source: SOURCE,
      });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "en-US" });
    contexts.push(context);
    const page = await context.newPage();
    const unconfirmed = await jsonLogin();
    expect(unconfirmed.statusCode).toBe(412);
    await page.goto(unconfirmed.json().content.url);
    await shot(page, "resend-en");
    expect(await page.getByRole("heading").textContent()).toBe("Code sent");
    const { link } = await outboxMessage(s, address, /Confirm your account/);
    await page.goto(link!);
    await shot(page, "confirmed-en");
    expect(await page.getByRole("heading").textContent()).toBe("Confirmed");
    const terms = await jsonLogin();
    expect(terms.statusCode).toBe(451);
    await page.goto(terms.json().content.url);
    await shot(page, "terms-link-en");
    await page.getByLabel(/I accept the Terms/).check();
    await submit(page, "Continue");
    expect(await page.getByRole("heading").textContent()).toBe("Thank you");
    expect((await jsonLogin()).statusCode).toBe(200);
  });

  // Last: a new version of the mandatory terms stops every user of the application's typology.
  it("451 page (es): new terms to accept, as checkboxes on the page; unchecked is refused; checked continues", async () => {
    const address = email("terms");
    await apiUser("shop", address);
    await confirmByLink(address);
    await published(s, {
      key: app.terms,
      displayName: { en: "I accept the new Terms of Service", es: "Acepto las nuevas Condiciones del servicio" },
      type: "terms",
      typology: app.typology,
      mandatory: true,
      version: "2",
    });
    const flow = await open("es", "shop");
    await flow.page.getByLabel("Correo electrónico").fill(address);
    await flow.page.getByLabel("Contraseña").fill(PASSWORD);
    await submit(flow.page, "Iniciar sesión");
    await shot(flow.page, "terms-es");
    expect(await flow.page.getByRole("heading").textContent()).toBe("Revisa y acepta");
    await flow.page.locator("form").evaluate((f) => f.setAttribute("novalidate", ""));
    await submit(flow.page, "Aceptar y continuar");
    expect(await flow.page.locator(`#assertion-${app.terms}-error`).textContent()).toBe(
      "Debes aceptarlo para continuar.",
    );
    await flow.page.getByLabel(/Acepto las nuevas Condiciones/).check();
    await flow.page.getByRole("button", { name: "Aceptar y continuar" }).click();
    await landed(flow.page, flow);
  });

  it("login (es) and, on a desktop, login and registration (en): one sign-in button, the code button second; the language switch", async () => {
    const flow = await open("es", "shop");
    await shot(flow.page, "login-es");
    expect(await flow.page.getByRole("button", { name: "Iniciar sesión", exact: true }).count()).toBe(1);
    expect(await flow.page.locator("input[type=submit]").getAttribute("value")).toBe("Envíame un código por correo");
    // Enter in the form submits with the first button: the password sign-in.
    expect(await flow.page.locator("form [type=submit]").first().textContent()).toBe("Iniciar sesión");
    await Promise.all([flow.page.waitForNavigation(), flow.page.getByRole("link", { name: "English" }).click()]);
    expect(await flow.page.getAttribute("html", "lang")).toBe("en");
    const desktop = { width: 1280, height: 860 };
    await shot((await open("en", "shop", {}, desktop)).page, "desktop-login-en");
    await shot((await open("en", "shop", { prompt: "create" }, desktop)).page, "desktop-register-en");
  });
});
