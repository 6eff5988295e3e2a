import type { FastifyReply } from "fastify";
import type { ConfirmationRequired, ProfileRequired, TermsRequired } from "@gatehouse/proto";
import { localized } from "../../http/terms.ts";
import { appNameOf, formTokenOf, FORM_ACTION, pageContext } from "../journey/context.ts";
import { expired } from "../journey/messages.ts";
import type { HostedView } from "../journey/view.ts";
import { problemAlert, withErrors } from "../kit/field-errors.ts";
import { assertionField, codeField, fieldsFor, type FormField } from "../kit/form-model.ts";
import { renderForm } from "../kit/render.ts";
import { CAPTCHA_POLICY, sendPage } from "../kit/send.ts";
import { captchaBox } from "../journey/captcha.ts";
import { KIT_TEXTS } from "../kit/texts.ts";
import { INTERRUPTION_TEXTS } from "./texts.ts";

// The pages of a hosted flow after its first form (contract section 8): the
// confirmation code (412, and a registration's), the legal assertions to
// accept (451), the missing mandatory data (206 with fca). Each carries the
// flow token the users service sealed; posted back (./submit.ts, with a
// two-step registration's second page) it continues the login.

const hiddenOf = (v: HostedView, page: string, flowToken: string, extra: { name: string; value: string }[] = []) => [
  { name: "form_token", value: formTokenOf(v) },
  { name: "intent", value: "flow" },
  { name: "page", value: page },
  { name: "flow_token", value: flowToken },
  ...extra,
];

/** The confirmation code page (412, a registration's main id): the code sent, continuing the flow once right. */
export async function showConfirmPage(
  v: HostedView,
  c: Pick<ConfirmationRequired, "flowToken" | "key" | "resendLimited">,
  opts: { status?: number; notice?: string; alert?: string; codeError?: string; to?: string } = {},
): Promise<FastifyReply> {
  const ctx = await pageContext(v);
  if (!ctx) return expired(v);
  const t = INTERRUPTION_TEXTS[v.lang];
  const k = KIT_TEXTS[v.lang];
  const phone = c.key === "phone_number";
  // Where the code went, when the user typed it on this flow's form.
  const to = opts.to ?? (v.typed?.key === c.key ? v.typed.value : "");
  const code: FormField = { ...codeField(v.lang), ...(opts.codeError ? { error: opts.codeError } : {}) };
  // "Send a new code" sends an email or an SMS: the ALTCHA check when the application asks for it.
  const captcha = await captchaBox(ctx, "code");
  const html = renderForm({
    lang: v.lang,
    appName: appNameOf(v),
    ...(captcha ? { captcha } : {}),
    title: phone ? t.confirmTitlePhone : t.confirmTitleEmail,
    lead: to ? t.confirmLeadTo : phone ? t.confirmLeadPhone : t.confirmLeadEmail,
    ...(to ? { leadTo: to } : {}),
    ...(opts.codeError ? { alert: { text: k.problemTitle, items: [{ id: code.id, text: opts.codeError }] } } : {}),
    ...(opts.alert ? { alert: { text: opts.alert } } : {}),
    ...(c.resendLimited ? { alert: { text: k.tooManyCodes } } : opts.notice ? { notice: opts.notice } : {}),
    action: FORM_ACTION,
    hidden: hiddenOf(v, "confirm", c.flowToken, [
      { name: "key", value: c.key },
      { name: "to", value: to },
    ]),
    fields: [code],
    primary: { label: k.continueButton },
    secondary: { label: k.sendNewCode, name: "resend" },
  });
  return sendPage(v.reply, opts.status ?? 200, html, captcha ? CAPTCHA_POLICY : undefined);
}

export async function showTermsPage(
  v: HostedView,
  terms: TermsRequired,
  opts: { status?: number; checked?: ReadonlySet<string> } = {},
): Promise<FastifyReply> {
  const t = INTERRUPTION_TEXTS[v.lang];
  const k = KIT_TEXTS[v.lang];
  const fields = terms.assertions.map((a) => {
    const f = assertionField(a.key, localized(a.displayName, v.lang), a.mandatory, opts.checked?.has(a.key) ?? false);
    return opts.status && a.mandatory && !opts.checked?.has(a.key) ? { ...f, error: k.errors.requiredCheck } : f;
  });
  const alert = problemAlert(v.lang, fields);
  const html = renderForm({
    lang: v.lang,
    appName: appNameOf(v),
    title: t.termsTitle,
    lead: t.termsLead(appNameOf(v)),
    ...(alert ? { alert } : {}),
    action: FORM_ACTION,
    hidden: hiddenOf(v, "terms", terms.flowToken, [
      { name: "shown", value: terms.assertions.map((a) => a.key).join(" ") },
    ]),
    fields,
    primary: { label: t.acceptButton },
  });
  return sendPage(v.reply, opts.status ?? 200, html);
}

export async function showProfilePage(
  v: HostedView,
  p: Pick<ProfileRequired, "flowToken" | "missingFields">,
  opts: { status?: number; values?: Record<string, string>; violations?: { field: string; code: string }[] } = {},
): Promise<FastifyReply> {
  const ctx = await pageContext(v);
  if (!ctx) return expired(v);
  const t = INTERRUPTION_TEXTS[v.lang];
  const k = KIT_TEXTS[v.lang];
  const { fields, unplaced } = withErrors(
    fieldsFor(ctx.ep, p.missingFields, { lang: v.lang, formats: ctx.formats, values: opts.values }),
    opts.violations ?? [],
    v.lang,
  );
  const alert = problemAlert(v.lang, fields, unplaced);
  const html = renderForm({
    lang: v.lang,
    appName: appNameOf(v),
    title: t.profileTitle,
    lead: t.profileLead(appNameOf(v)),
    ...(alert ? { alert } : {}),
    action: FORM_ACTION,
    hidden: hiddenOf(v, "profile", p.flowToken, [{ name: "missing", value: p.missingFields.join(" ") }]),
    fields,
    primary: { label: k.continueButton },
  });
  return sendPage(v.reply, opts.status ?? 200, html);
}
