import type { FastifyReply } from "fastify";
import type { Violation } from "@gatehouse/errors";
import {
  appNameOf,
  authorizeUrl,
  formTokenOf,
  FORM_ACTION,
  languageLinks,
  pageContext,
  type PageContext,
} from "../journey/context.ts";
import { expired } from "../journey/messages.ts";
import type { HostedView } from "../journey/view.ts";
import { problemAlert, withErrors } from "../kit/field-errors.ts";
import { registrationForm, secondStepForm } from "../kit/form-model.ts";
import { renderForm, renderMessage } from "../kit/render.ts";
import { captchaBox } from "../journey/captcha.ts";
import { CAPTCHA_POLICY, SCRIPT_POLICY, sendPage } from "../kit/send.ts";
import { PASSKEY_SCRIPTS } from "../paths.ts";
import { KIT_TEXTS } from "../kit/texts.ts";
import { SIGN_IN_TEXTS } from "../sign-in/texts.ts";
import { providerButtons } from "../social/buttons.ts";
import { SOCIAL_TEXTS } from "../social/texts.ts";
import { REGISTRATION_TEXTS } from "./texts.ts";

interface RegistrationPageOptions {
  status?: number;
  values?: Record<string, string>;
  violations?: readonly Violation[];
  languages?: boolean;
  /** Social sign-in: the account of a verified upstream identity (its token rides hidden; no password). */
  upstream?: { token: string; email: string };
  /** A message above the form instead of a field's: the ALTCHA check failed, the SMS limits were reached. */
  alert?: string;
}

/**
 * The entry point's registration page (contract section 8, `prompt=create`):
 * its fields in order (step 1 of a two-step entry point), the password
 * unless passwordless, a checkbox per mandatory legal assertion. An assisted
 * entry point shows no form: its application registers the users.
 */
export async function showRegistrationPage(v: HostedView, opts: RegistrationPageOptions = {}): Promise<FastifyReply> {
  const ctx = await pageContext(v);
  if (!ctx) return expired(v);
  const t = REGISTRATION_TEXTS[v.lang];
  const signIn = SIGN_IN_TEXTS[v.lang].signIn;
  const app = appNameOf(v);
  if (ctx.ep.assisted) {
    const html = renderMessage({
      lang: v.lang,
      appName: app,
      title: t.assistedTitle(app),
      text: t.assistedText(app),
      links: [{ href: authorizeUrl(v.pending), label: signIn }],
    });
    return sendPage(v.reply, opts.status ?? 200, html);
  }
  const assertions = await v.h.directory.mandatoryAssertions(ctx.ep, v.lang);
  const upstream = opts.upstream;
  const form = registrationForm(ctx.ep, {
    lang: v.lang,
    formats: ctx.formats,
    assertions,
    values: opts.values,
    ...(upstream ? { upstream: { email: upstream.email } } : {}),
  });
  const { fields, unplaced } = withErrors(form.fields, opts.violations ?? [], v.lang);
  const alert = opts.alert ? { text: opts.alert } : problemAlert(v.lang, fields, unplaced);
  const captcha = await captchaBox(ctx, "sign-up");
  // The passkey script only learns whether this browser can make a passkey (the offer after registering).
  const passkeys = Boolean(v.h.deps.passkeys);
  const html = renderForm({
    lang: v.lang,
    appName: app,
    ...(captcha ? { captcha } : {}),
    ...(passkeys ? { scripts: PASSKEY_SCRIPTS } : {}),
    ...(opts.languages ? { languages: languageLinks(v, "create") } : {}),
    ...(form.step ? { stepLabel: t.stepOf(1, 2) } : {}),
    title: t.registerTitle,
    lead: upstream ? SOCIAL_TEXTS[v.lang].signupLead : t.registerLead(app),
    ...(alert ? { alert } : {}),
    action: FORM_ACTION,
    hidden: [
      { name: "form_token", value: formTokenOf(v) },
      { name: "intent", value: "register" },
      ...(upstream ? [{ name: "upstream_token", value: upstream.token }] : []),
    ],
    fields,
    primary: { label: form.step ? KIT_TEXTS[v.lang].continueButton : t.createButton },
    ...(upstream ? {} : { providers: await providerButtons(v, ctx.ep) }),
    foot: [{ text: t.haveAccount, href: authorizeUrl(v.pending), label: signIn }],
  });
  return sendPage(v.reply, opts.status ?? 200, html, captcha ? CAPTCHA_POLICY : passkeys ? SCRIPT_POLICY : undefined);
}

/** The second page of a two-step entry point: its step 2 fields, saved like a patch through the flow. */
export function showSecondStep(
  ctx: PageContext,
  flowToken: string,
  opts: { status?: number; values?: Record<string, string>; violations?: readonly Violation[] } = {},
): FastifyReply {
  const t = REGISTRATION_TEXTS[ctx.lang];
  const { fields, unplaced } = withErrors(
    secondStepForm(ctx.ep, { lang: ctx.lang, formats: ctx.formats, values: opts.values }),
    opts.violations ?? [],
    ctx.lang,
  );
  const alert = problemAlert(ctx.lang, fields, unplaced);
  const html = renderForm({
    lang: ctx.lang,
    appName: appNameOf(ctx),
    stepLabel: t.stepOf(2, 2),
    title: t.step2Title,
    lead: t.step2Lead(appNameOf(ctx)),
    ...(alert ? { alert } : {}),
    action: FORM_ACTION,
    hidden: [
      { name: "form_token", value: formTokenOf(ctx) },
      { name: "intent", value: "flow" },
      { name: "page", value: "step2" },
      { name: "flow_token", value: flowToken },
    ],
    fields,
    primary: { label: t.createButton },
  });
  return sendPage(ctx.reply, opts.status ?? 200, html);
}
