import type { FastifyReply } from "fastify";
import type { JsonObject } from "@bufbuild/protobuf";
import { errorFacts } from "@gatehouse/errors";
import { authorizationOf, callerOf, pageContext, type PageContext } from "../journey/context.ts";
import { expired } from "../journey/messages.ts";
import { JOURNEY_TEXTS } from "../journey/texts.ts";
import { showLoginError, showLoginOutcome, type HostedView } from "../journey/view.ts";
import { withErrors } from "../kit/field-errors.ts";
import { loginForm, loginIdKey } from "../kit/form-model.ts";
import { dataOf } from "../kit/form-values.ts";
import { KIT_TEXTS } from "../kit/texts.ts";
import { captchaPassed } from "../journey/captcha.ts";
import { showCodePage } from "./code-page.ts";
import { showLoginPage } from "./login-page.ts";
import { postedCredential } from "../passkeys/submit.ts";
import { PASSKEY_TEXTS } from "../passkeys/texts.ts";

/** "Email me a code": a code for the identifier typed, then the code page (the same page whether or not the user exists). */
async function requestCode(
  ctx: PageContext,
  key: "email" | "phone_number",
  value: string,
  form: Record<string, string>,
  again: boolean,
): Promise<FastifyReply> {
  const t = KIT_TEXTS[ctx.lang];
  if (!value)
    return showLoginPage(ctx, {
      status: 400,
      idError: key === "phone_number" ? t.errors.enterPhone : t.errors.enterId,
    });
  // Section 17: no code is sent without a right, unused ALTCHA solution (when the application asks for one).
  if (!(await captchaPassed(ctx, form)))
    return again
      ? showCodePage(ctx, { key, value, status: 400, alert: t.captcha.failed })
      : showLoginPage(ctx, { status: 400, value, error: t.captcha.failed });
  try {
    await ctx.h.deps.users.requestAccessCode({ caller: callerOf(ctx), key, value });
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
    // A limit says when it opens again (Retry-After), as the JSON answer does.
    const limited = f.reason === "SMS_LIMIT" || f.reason === "RATE_LIMITED";
    if (limited && f.metadata.retry_after) ctx.reply.header("retry-after", f.metadata.retry_after);
    if (f.reason === "SMS_LIMIT")
      return again
        ? showCodePage(ctx, { key, value, status: 429, alert: t.smsLimit })
        : showLoginPage(ctx, { status: 429, value, error: t.smsLimit });
    if (f.reason !== "RATE_LIMITED") return showLoginError(ctx, { email: value }, err);
    return showCodePage(ctx, { key, value, status: 429, alert: t.tooManyCodes });
  }
  return showCodePage(ctx, { key, value, ...(again ? { notice: t.newCodeSent } : {}) });
}

/** The login form posted: a password sign-in, or (the second button, or a passwordless entry point) a code request. */
export async function submitLoginForm(v: HostedView, form: Record<string, string>): Promise<FastifyReply> {
  if (form.link_token) v.linkToken = form.link_token;
  const ctx = await pageContext(v);
  if (!ctx) return expired(v);
  const key = loginIdKey(ctx.ep);
  const value = (form[key] ?? "").trim();
  if (form.send_code !== undefined || ctx.ep.passwordless) return requestCode(ctx, key, value, form, false);
  const password = form.password ?? "";
  if (!value || !password)
    return showLoginPage(v, { status: 400, error: JOURNEY_TEXTS[v.lang].missingCredentials, value });
  v.typed = { key, value };
  try {
    const res = await v.h.deps.users.loginUser({
      caller: callerOf(v),
      ...(key === "email" ? { email: value } : { phoneNumber: value }),
      password,
      ...(v.linkToken ? { linkToken: v.linkToken } : {}),
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
  if (form.link_token) v.linkToken = form.link_token;
  const ctx = await pageContext(v);
  if (!ctx) return expired(v);
  const t = KIT_TEXTS[v.lang];
  const key = loginIdKey(ctx.ep);
  const value = (form[key] ?? "").trim();
  if (!value) return showLoginPage(v, { status: 400 });
  if (form.send_code !== undefined) return requestCode(ctx, key, value, form, true);
  const code = (form.code ?? "").replace(/\s+/g, "");
  const validation = ctx.ep.fields.filter((f) => f.type === "field" && f.useForValidation).map((f) => f.key);
  const values = Object.fromEntries(validation.map((k) => [k, (form[k] ?? "").trim()]));
  if (!code) return showCodePage(ctx, { key, value, status: 400, values, codeError: t.errors.enterCode });
  v.typed = { key, value };
  try {
    const res = await v.h.deps.users.loginUser({
      caller: callerOf(v),
      ...(key === "email" ? { email: value } : { phoneNumber: value }),
      code,
      ...(v.linkToken ? { linkToken: v.linkToken } : {}),
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
      return showCodePage(ctx, { key, value, status: 429, values, alert: JOURNEY_TEXTS[v.lang].tooManyAttempts });
    }
    return showLoginError(v, { email: value }, err);
  }
}

/**
 * "Sign in with a passkey", or a passkey picked in the autofill (intent
 * `passkey`): the assertion the script posted, with the token of the
 * options on the page; then the login's outcome like a password's. A
 * refused passkey shows the login page again (with fresh options).
 */
export async function submitPasskeyForm(v: HostedView, form: Record<string, string>): Promise<FastifyReply> {
  const credential = postedCredential(form);
  const token = form.passkey_token ?? "";
  const t = PASSKEY_TEXTS[v.lang];
  if (!credential || !token) return showLoginPage(v, { status: 400, error: t.rejected });
  try {
    const res = await v.h.deps.users.loginUser({
      caller: callerOf(v),
      passkey: { token, credential },
      fca: true,
      authorizationRequest: authorizationOf(v.pending),
    });
    return await showLoginOutcome(v, res.outcome);
  } catch (err) {
    const f = errorFacts(err);
    if (f.reason === "INVALID_CREDENTIALS" || f.reason === "VALIDATION_FAILED")
      return showLoginPage(v, { status: f.reason === "VALIDATION_FAILED" ? 400 : 401, error: t.rejected });
    if (f.reason === "RATE_LIMITED") {
      if (f.metadata.retry_after) v.reply.header("retry-after", f.metadata.retry_after);
      return showLoginPage(v, { status: 429, error: JOURNEY_TEXTS[v.lang].tooManyAttempts });
    }
    return showLoginError(v, { email: "" }, err);
  }
}
