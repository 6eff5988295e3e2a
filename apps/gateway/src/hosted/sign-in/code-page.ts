import type { FastifyReply } from "fastify";
import { appNameOf, authorizeUrl, formTokenOf, FORM_ACTION, type PageContext } from "../journey/context.ts";
import { codeField, fieldsFor, type FormField } from "../kit/form-model.ts";
import { renderForm } from "../kit/render.ts";
import { CAPTCHA_POLICY, sendPage } from "../kit/send.ts";
import { captchaBox } from "../journey/captcha.ts";
import { KIT_TEXTS } from "../kit/texts.ts";
import { SIGN_IN_TEXTS } from "./texts.ts";

export interface CodePageOptions {
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
export async function showCodePage(ctx: PageContext, o: CodePageOptions): Promise<FastifyReply> {
  const t = SIGN_IN_TEXTS[ctx.lang];
  const k = KIT_TEXTS[ctx.lang];
  const validation = ctx.ep.fields.filter((f) => f.type === "field" && f.useForValidation).map((f) => f.key);
  const code: FormField = {
    ...codeField(ctx.lang, t.codeHint),
    ...(o.codeError ? { error: o.codeError } : {}),
    ...(o.alert ? { alerted: true } : {}),
  };
  const extra = fieldsFor(ctx.ep, validation, { lang: ctx.lang, formats: ctx.formats, values: o.values }).map((f, i) =>
    i === 0 ? { ...f, hint: t.validationHint } : f,
  );
  // "Send a new code" is a code request: the ALTCHA check when the application asks for it.
  const captcha = await captchaBox(ctx, "code");
  const html = renderForm({
    lang: ctx.lang,
    appName: appNameOf(ctx),
    ...(captcha ? { captcha } : {}),
    title: o.key === "phone_number" ? t.codeTitlePhone : t.codeTitleEmail,
    lead: t.codeLead,
    leadTo: o.value,
    ...(o.alert ? { alert: { text: o.alert } } : {}),
    ...(o.notice ? { notice: o.notice } : {}),
    action: FORM_ACTION,
    hidden: [
      { name: "form_token", value: formTokenOf(ctx) },
      { name: "intent", value: "code" },
      { name: o.key, value: o.value },
      ...(ctx.linkToken ? [{ name: "link_token", value: ctx.linkToken }] : []),
    ],
    fields: [code, ...extra],
    primary: { label: t.signIn },
    secondary: { label: k.sendNewCode, name: "send_code" },
    foot: [{ href: authorizeUrl(ctx.pending), label: ctx.ep.passwordless ? t.differentAccount : t.usePassword }],
  });
  return sendPage(ctx.reply, o.status ?? 200, html, captcha ? CAPTCHA_POLICY : undefined);
}
