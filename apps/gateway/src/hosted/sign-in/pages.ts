import type { FastifyReply } from "fastify";
import type { JsonObject } from "@bufbuild/protobuf";
import { errorFacts } from "@gatehouse/errors";
import { CONSOLE_CLIENT_ID } from "@gatehouse/rpc";
import { showLoginOutcome } from "../authorize/outcomes.ts";
import { showLoginError } from "../authorize/error-pages.ts";
import type { HostedView } from "../authorize/view.ts";
import { sendPage } from "../kit/send.ts";
import { TEXTS } from "../authorize/texts.ts";
import {
  appNameOf,
  authorizationOf,
  authorizeUrl,
  callerOf,
  formTokenOf,
  languageLinks,
  pageContext,
  type PageContext,
} from "../authorize/context.ts";
import { codeField, fieldsFor, loginForm, loginIdKey, withErrors, type FormField } from "../kit/form-model.ts";
import { renderForm } from "../kit/render.ts";
import { HOSTED_TEXTS } from "../kit/texts.ts";
import { dataOf, expired } from "../authorize/values.ts";

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
}

/**
 * The entry point's login page (contract sections 7 and 8): the main
 * identifier (`email`, or `phone_number` when the main id is the phone) and
 * `password` (unless passwordless), the sign-in button first, then a second
 * button that signs in with a one-time code instead.
 */
export async function showLoginPage(v: HostedView, opts: LoginPageOptions = {}): Promise<FastifyReply> {
  const ctx = await pageContext(v);
  if (!ctx) return expired(v);
  const t = HOSTED_TEXTS[v.lang];
  const key = loginIdKey(ctx.ep);
  // OpenID Connect login_hint (always an email) prefills the main id when that is the email, until the user types one.
  const hint = key === "email" ? (v.pending.loginHint ?? "") : "";
  const fields = loginForm(ctx.ep, v.lang, opts.value ?? hint).map((f) => ({
    ...f,
    ...(opts.error ? { alerted: true } : {}),
    ...(opts.idError && f.name === key ? { error: opts.idError } : {}),
  }));
  const codeLabel = key === "phone_number" ? t.textMeCode : t.emailMeCode;
  // The console's operators sign in with the password and TOTP only (contract section 6).
  const codeSignIn = ctx.ep.id !== CONSOLE_CLIENT_ID;
  const html = renderForm({
    lang: v.lang,
    appName: appNameOf(v),
    ...(opts.languages ? { languages: languageLinks(v) } : {}),
    title: t.signInTitle,
    lead: t.signInLead(appNameOf(v)),
    ...(opts.error ? { alert: { text: opts.error } } : {}),
    action: "authorize",
    hidden: [
      { name: "form_token", value: formTokenOf(v) },
      { name: "intent", value: "login" },
    ],
    fields,
    primary: ctx.ep.passwordless ? { label: codeLabel, name: "send_code", value: "1" } : { label: t.signIn },
    ...(ctx.ep.passwordless || !codeSignIn
      ? {}
      : { secondary: { label: codeLabel, name: "send_code", divider: true } }),
    foot: ctx.ep.assisted
      ? []
      : [{ text: t.noAccount, href: authorizeUrl(v.pending, { prompt: "create" }), label: t.createAccount }],
  });
  return sendPage(v.reply, opts.status ?? 200, html);
}

/** The second step of a login with TOTP on (428): one code input; the MFA token rides hidden. */
export function showMfaPage(v: HostedView, mfaToken: string, error?: string): FastifyReply {
  const t = TEXTS[v.lang];
  const field: FormField = { ...codeField(v.lang), label: t.mfaCode, ...(error ? { alerted: true } : {}) };
  const html = renderForm({
    lang: v.lang,
    appName: appNameOf(v),
    title: t.mfaTitle,
    lead: t.mfaText,
    ...(error ? { alert: { text: error } } : {}),
    action: "authorize",
    hidden: [
      { name: "form_token", value: formTokenOf(v) },
      { name: "mfa_token", value: mfaToken },
    ],
    fields: [field],
    primary: { label: t.mfaSubmit },
    foot: [{ href: authorizeUrl(v.pending), label: t.backToSignIn }],
  });
  return sendPage(v.reply, error ? 400 : 200, html);
}

interface CodePageOptions {
  key: "email" | "phone_number";
  value: string;
  status?: number;
  alert?: string;
  notice?: string;
  values?: Record<string, string>;
  codeError?: string;
}

/**
 * The code sign-in page: the 6-digit code that was sent and, when the entry
 * point has `useForValidation` fields, their values; a second button sends
 * a new code. The identifier rides hidden.
 */
function showCodePage(ctx: PageContext, o: CodePageOptions): FastifyReply {
  const t = HOSTED_TEXTS[ctx.lang];
  const validation = ctx.ep.fields.filter((f) => f.type === "field" && f.useForValidation).map((f) => f.key);
  const code: FormField = {
    ...codeField(ctx.lang, t.codeHint),
    ...(o.codeError ? { error: o.codeError } : {}),
    ...(o.alert ? { alerted: true } : {}),
  };
  const extra = fieldsFor(ctx.ep, validation, { lang: ctx.lang, formats: ctx.formats, values: o.values }).map((f, i) =>
    i === 0 ? { ...f, hint: t.validationHint } : f,
  );
  const html = renderForm({
    lang: ctx.lang,
    appName: appNameOf(ctx),
    title: o.key === "phone_number" ? t.codeTitlePhone : t.codeTitleEmail,
    lead: t.codeLead,
    leadTo: o.value,
    ...(o.alert ? { alert: { text: o.alert } } : {}),
    ...(o.notice ? { notice: o.notice } : {}),
    action: "authorize",
    hidden: [
      { name: "form_token", value: formTokenOf(ctx) },
      { name: "intent", value: "code" },
      { name: o.key, value: o.value },
    ],
    fields: [code, ...extra],
    primary: { label: t.signIn },
    secondary: { label: t.sendNewCode, name: "send_code" },
    foot: [{ href: authorizeUrl(ctx.pending), label: ctx.ep.passwordless ? t.differentAccount : t.usePassword }],
  });
  return sendPage(ctx.reply, o.status ?? 200, html);
}

/** "Email me a code": a code for the identifier typed, then the code page (the same page whether or not the user exists). */
async function requestCode(
  ctx: PageContext,
  key: "email" | "phone_number",
  value: string,
  again: boolean,
): Promise<FastifyReply> {
  const t = HOSTED_TEXTS[ctx.lang];
  if (!value)
    return showLoginPage(ctx, {
      status: 400,
      idError: key === "phone_number" ? t.errors.enterPhone : t.errors.enterId,
    });
  try {
    await ctx.h.deps.users!.requestAccessCode({ caller: callerOf(ctx), key, value });
  } catch (err) {
    const f = errorFacts(err);
    if (f.reason === "VALIDATION_FAILED") {
      const [field] = withErrors(
        loginForm(ctx.ep, ctx.lang, value),
        f.violations.map((x) => ({ ...x, field: key })),
        ctx.lang,
      ).fields;
      return showLoginPage(ctx, { status: 400, value, idError: field?.error ?? t.errors.invalid });
    }
    if (f.reason !== "RATE_LIMITED") return showLoginError(ctx, { email: value }, err);
    if (f.metadata.retry_after) ctx.reply.header("retry-after", f.metadata.retry_after);
    return showCodePage(ctx, { key, value, status: 429, alert: t.tooManyCodes });
  }
  return showCodePage(ctx, { key, value, ...(again ? { notice: t.newCodeSent } : {}) });
}

/** The login form posted: a password sign-in, or (the second button, or a passwordless entry point) a code request. */
export async function submitLoginForm(v: HostedView, form: Record<string, string>): Promise<FastifyReply> {
  const ctx = await pageContext(v);
  if (!ctx) return expired(v);
  const key = loginIdKey(ctx.ep);
  const value = (form[key] ?? "").trim();
  if (form.send_code !== undefined || ctx.ep.passwordless) return requestCode(ctx, key, value, false);
  const password = form.password ?? "";
  if (!value || !password) return showLoginPage(v, { status: 400, error: TEXTS[v.lang].missingCredentials, value });
  v.typed = { key, value };
  try {
    const res = await v.h.deps.users!.loginUser({
      caller: callerOf(v),
      ...(key === "email" ? { email: value } : { phoneNumber: value }),
      password,
      // The entry point's login page completes the account (missing fields) before its code.
      fca: true,
      authorizationRequest: authorizationOf(v.pending),
    });
    return await showLoginOutcome(v, res.outcome);
  } catch (err) {
    return showLoginError(v, { email: value }, err);
  }
}

/** The code page posted: code sign-in with the `useForValidation` values, or (second button) a new code. */
export async function submitCodeForm(v: HostedView, form: Record<string, string>): Promise<FastifyReply> {
  const ctx = await pageContext(v);
  if (!ctx) return expired(v);
  const t = HOSTED_TEXTS[v.lang];
  const key = loginIdKey(ctx.ep);
  const value = (form[key] ?? "").trim();
  if (!value) return showLoginPage(v, { status: 400 });
  if (form.send_code !== undefined) return requestCode(ctx, key, value, true);
  const code = (form.code ?? "").replace(/\s+/g, "");
  const validation = ctx.ep.fields.filter((f) => f.type === "field" && f.useForValidation).map((f) => f.key);
  const values = Object.fromEntries(validation.map((k) => [k, (form[k] ?? "").trim()]));
  if (!code) return showCodePage(ctx, { key, value, status: 400, values, codeError: t.errors.enterCode });
  v.typed = { key, value };
  try {
    const res = await v.h.deps.users!.loginUser({
      caller: callerOf(v),
      ...(key === "email" ? { email: value } : { phoneNumber: value }),
      code,
      datas: dataOf(values) as JsonObject,
      fca: true,
      authorizationRequest: authorizationOf(v.pending),
    });
    return await showLoginOutcome(v, res.outcome);
  } catch (err) {
    const f = errorFacts(err);
    if (f.reason === "INVALID_CREDENTIALS" || f.reason === "VALIDATION_FAILED") {
      return showCodePage(ctx, {
        key,
        value,
        status: f.reason === "INVALID_CREDENTIALS" ? 401 : 400,
        values,
        alert: t.errors.wrongSignInCode,
      });
    }
    if (f.reason === "RATE_LIMITED") {
      if (f.metadata.retry_after) v.reply.header("retry-after", f.metadata.retry_after);
      return showCodePage(ctx, { key, value, status: 429, values, alert: TEXTS[v.lang].tooManyAttempts });
    }
    return showLoginError(v, { email: value }, err);
  }
}
