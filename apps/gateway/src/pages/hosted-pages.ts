import type { Locale } from "@gatehouse/errors";
import { esc, page } from "./html.ts";
import { TEXTS } from "./texts.ts";

export interface LoginPageInput {
  lang: Locale;
  appName: string;
  entrypointName: string;
  formToken: string;
  /** Shown above the form (role=alert), and the inputs marked invalid. */
  error?: string;
  email?: string;
}

/**
 * The hosted login form: two labelled inputs named email and password, one
 * submit button, autocomplete hints for password managers, the form token
 * hidden. Posts back to the authorization endpoint (relative, so it works
 * behind a path prefix).
 */
export function loginPage(input: LoginPageInput): string {
  const t = TEXTS[input.lang];
  const title = t.signInTitle(input.appName);
  const invalid = input.error ? ' aria-invalid="true" aria-describedby="form-error"' : "";
  const body = [
    `<h1>${esc(title)}</h1>`,
    input.entrypointName && input.entrypointName !== input.appName ? `<p>${esc(input.entrypointName)}</p>` : "",
    input.error ? `<p id="form-error" class="error" role="alert">${esc(input.error)}</p>` : "",
    '<form method="post" action="authorize">',
    `<input type="hidden" name="form_token" value="${esc(input.formToken)}">`,
    `<label for="email">${esc(t.email)}</label>`,
    `<input id="email" name="email" type="email" inputmode="email" autocomplete="username" autocapitalize="none" spellcheck="false" required${invalid} value="${esc(input.email ?? "")}">`,
    `<label for="password">${esc(t.password)}</label>`,
    `<input id="password" name="password" type="password" autocomplete="current-password" required${invalid}>`,
    `<button type="submit">${esc(t.submit)}</button>`,
    "</form>",
  ];
  return page(input.lang, title, body.filter(Boolean).join("\n"));
}

/** The second step of the hosted login: one code input; the MFA token and form token ride hidden. */
export function mfaPage(input: { lang: Locale; formToken: string; mfaToken: string; error?: string }): string {
  const t = TEXTS[input.lang];
  const invalid = input.error ? ' aria-invalid="true" aria-describedby="form-error"' : "";
  const body = [
    `<h1>${esc(t.mfaTitle)}</h1>`,
    `<p>${esc(t.mfaText)}</p>`,
    input.error ? `<p id="form-error" class="error" role="alert">${esc(input.error)}</p>` : "",
    '<form method="post" action="authorize">',
    `<input type="hidden" name="form_token" value="${esc(input.formToken)}">`,
    `<input type="hidden" name="mfa_token" value="${esc(input.mfaToken)}">`,
    `<label for="code">${esc(t.mfaCode)}</label>`,
    `<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" maxlength="16" required${invalid}>`,
    `<button type="submit">${esc(t.mfaSubmit)}</button>`,
    "</form>",
  ];
  return page(input.lang, t.mfaTitle, body.filter(Boolean).join("\n"));
}

/** A page with a heading, a message and optional links (errors, sign-out, interruptions). */
export function messagePage(lang: Locale, title: string, text: string, links: { href: string; label: string }[] = []): string {
  const items = links.map((l) => `<p><a href="${esc(l.href)}">${esc(l.label)}</a></p>`);
  return page(lang, title, [`<h1>${esc(title)}</h1>`, `<p role="alert">${esc(text)}</p>`, ...items].join("\n"));
}
