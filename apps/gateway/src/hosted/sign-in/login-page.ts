import type { FastifyReply } from "fastify";
import { CONSOLE_CLIENT_ID } from "@gatehouse/rpc";
import { appNameOf, authorizeUrl, formTokenOf, FORM_ACTION, languageLinks, pageContext } from "../journey/context.ts";
import { expired } from "../journey/messages.ts";
import type { HostedView } from "../journey/view.ts";
import { loginForm, loginIdKey } from "../kit/form-model.ts";
import { renderForm } from "../kit/render.ts";
import { captchaBox } from "../journey/captcha.ts";
import { CAPTCHA_POLICY, SCRIPT_POLICY, sendPage } from "../kit/send.ts";
import { PASSKEY_AUTOCOMPLETE, passkeySignInPart } from "../passkeys/sign-in-part.ts";
import { providerButtons } from "../social/buttons.ts";
import { SIGN_IN_TEXTS } from "./texts.ts";

export interface LoginPageOptions {
  status?: number;
  /** A message about the whole form (wrong credentials, throttled): the alert, and both inputs marked. */
  error?: string;
  /** The identifier typed, shown again. */
  value?: string;
  /** A message about the identifier input only. */
  idError?: string;
  /** Shown on GET: links to the page in the other language. */
  languages?: boolean;
  /** A status line above the form (social sign-in: sign in to link the provider). */
  notice?: string;
}

/**
 * The entry point's login page (contract sections 7 and 8): the main
 * identifier (`email`, or `phone_number` when the main id is the phone) and
 * `password` (unless passwordless), the sign-in button first, then a second
 * button that signs in with a one-time code instead; with passkeys, a
 * "Sign in with a passkey" button and passkeys in the identifier's autofill
 * (both shown by the script only: without JavaScript the page is as before).
 */
export async function showLoginPage(v: HostedView, opts: LoginPageOptions = {}): Promise<FastifyReply> {
  const ctx = await pageContext(v);
  if (!ctx) return expired(v);
  const t = SIGN_IN_TEXTS[v.lang];
  const key = loginIdKey(ctx.ep);
  // OpenID Connect login_hint (always an email) prefills the main id when that is the email, until the user types one.
  const hint = key === "email" ? (v.pending.loginHint ?? "") : "";
  const passkeys = await passkeySignInPart(ctx);
  const fields = loginForm(ctx.ep, v.lang, opts.value ?? hint).map((f) => ({
    ...f,
    ...(passkeys && f.name === key ? { autocomplete: PASSKEY_AUTOCOMPLETE } : {}),
    ...(opts.error ? { alerted: true } : {}),
    ...(opts.idError && f.name === key ? { error: opts.idError } : {}),
  }));
  const codeLabel = key === "phone_number" ? t.textMeCode : t.emailMeCode;
  // The console's operators sign in with the password and TOTP only (contract section 6).
  const codeSignIn = ctx.ep.id !== CONSOLE_CLIENT_ID;
  // The code button is a code request: the ALTCHA check when the application asks for it (a password sign-in ignores it).
  const captcha = codeSignIn ? await captchaBox(ctx, "code") : undefined;
  const html = renderForm({
    lang: v.lang,
    appName: appNameOf(v),
    ...(captcha ? { captcha } : {}),
    ...(opts.languages ? { languages: languageLinks(v) } : {}),
    title: t.signInTitle,
    lead: t.signInLead(appNameOf(v)),
    ...(opts.error ? { alert: { text: opts.error } } : {}),
    ...(opts.notice ? { notice: opts.notice } : {}),
    action: FORM_ACTION,
    hidden: [
      { name: "form_token", value: formTokenOf(v) },
      { name: "intent", value: "login" },
      ...(v.linkToken ? [{ name: "link_token", value: v.linkToken }] : []),
    ],
    fields,
    primary: ctx.ep.passwordless ? { label: codeLabel, name: "send_code", value: "1" } : { label: t.signIn },
    ...(ctx.ep.passwordless || !codeSignIn
      ? {}
      : { secondary: { label: codeLabel, name: "send_code", divider: true } }),
    ...(passkeys ?? {}),
    // While an identity waits to be linked, this account's own proof is what the page asks for.
    ...(v.linkToken ? {} : { providers: await providerButtons(v, ctx.ep) }),
    foot: ctx.ep.assisted
      ? []
      : [{ text: t.noAccount, href: authorizeUrl(v.pending, { prompt: "create" }), label: t.createAccount }],
  });
  return sendPage(v.reply, opts.status ?? 200, html, captcha ? CAPTCHA_POLICY : passkeys ? SCRIPT_POLICY : undefined);
}
