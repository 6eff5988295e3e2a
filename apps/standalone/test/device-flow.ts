import { chromium, type Browser, type Page } from "playwright-core";
import { expect } from "vitest";
import { outboxMessage, shot } from "./hosted-flows.ts";
import { freePort } from "./processes.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { PASSWORD } from "./user-flows.ts";

// The device grant's two sides: a stack on a real port (the device client
// talks HTTP to it) and headless Chromium without JavaScript for the person
// on /device. Screenshots with HOSTED_SCREENSHOTS=<dir> (docs/images/device).

const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"];

export interface DeviceRig {
  s: TestStack;
  base: string;
  browser: Browser;
  close(): Promise<void>;
}

export async function deviceRig(embedded: boolean, env: Record<string, string> = {}): Promise<DeviceRig> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const s = await startTestStack({
    embedded,
    env: { PUBLIC_URL: base, PORT: String(port), HOST: "127.0.0.1", ...env },
  });
  await s.app.listen({ port, host: "127.0.0.1" });
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  return {
    s,
    base,
    browser,
    async close() {
      await browser.close();
      await s.close();
    },
  };
}

/** A phone-sized page without JavaScript: the /device pages must work without it. */
export async function personPage(rig: DeviceRig, lang: "en" | "es"): Promise<Page> {
  const context = await rig.browser.newContext({
    viewport: { width: 390, height: 844 },
    locale: lang === "es" ? "es-ES" : "en-US",
    javaScriptEnabled: false,
  });
  return context.newPage();
}

const T = {
  en: {
    continue: "Continue",
    email: "Email",
    password: "Password",
    signIn: "Sign in",
    approve: "Approve",
    deny: "Deny",
  },
  es: {
    continue: "Continuar",
    email: "Correo electrónico",
    password: "Contraseña",
    signIn: "Iniciar sesión",
    approve: "Aprobar",
    deny: "Denegar",
  },
};

async function click(page: Page, name: string) {
  await Promise.all([page.waitForNavigation(), page.getByRole("button", { name, exact: true }).click()]);
}

/**
 * The person's side: /device (prefilled from verification_uri_complete, or
 * the code typed), the entry point's login, then Approve or Deny. Ends on
 * the done page; returns its heading.
 */
export async function personDecides(
  page: Page,
  o: {
    lang: "en" | "es";
    url: string;
    typed?: string;
    email: string;
    decision: "approve" | "deny";
    shots?: string;
    /** Sign in with an emailed one-time code (English pages) instead of the password. */
    emailedCode?: TestStack;
  },
): Promise<string> {
  const t = T[o.lang];
  await page.goto(o.url);
  expect(await page.getAttribute("html", "lang")).toBe(o.lang);
  if (o.typed !== undefined) await page.getByLabel(o.lang === "es" ? "Código" : "Code").fill(o.typed);
  if (o.shots) await shot(page, `${o.shots}-enter-${o.lang}`);
  await click(page, t.continue);
  expect(new URL(page.url()).pathname).toBe("/oauth2/authorize");
  await page.getByLabel(t.email).fill(o.email);
  if (o.emailedCode) {
    const asked = Date.now();
    await click(page, "Email me a code");
    const { code } = await outboxMessage(o.emailedCode, o.email, /Your sign-in code/, asked);
    await page.getByLabel("6-digit code").fill(code);
  } else {
    await page.getByLabel(t.password).fill(PASSWORD);
  }
  await click(page, t.signIn);
  expect(new URL(page.url()).pathname).toBe("/device/callback");
  if (o.shots) await shot(page, `${o.shots}-decide-${o.lang}`);
  await click(page, o.decision === "approve" ? t.approve : t.deny);
  if (o.shots) await shot(page, `${o.shots}-${o.decision === "approve" ? "done" : "denied"}-${o.lang}`);
  return (await page.getByRole("heading", { level: 1 }).textContent()) ?? "";
}

/** A form POST to the running server. */
export async function post(
  base: string,
  path: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form),
  });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, string> };
}

/** One poll of the token endpoint with a device code, as a public client. */
export const poll = (base: string, clientId: string, deviceCode: string) =>
  post(base, "/oauth2/token", {
    grant_type: "urn:ietf:params:oauth:grant-type:device_code",
    device_code: deviceCode,
    client_id: clientId,
  });
