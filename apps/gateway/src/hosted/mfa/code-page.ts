import type { FastifyReply } from "fastify";
import { appNameOf, formTokenOf, FORM_ACTION } from "../journey/context.ts";
import { backToSignIn } from "../journey/messages.ts";
import type { HostedView } from "../journey/view.ts";
import { codeField, type FormField } from "../kit/form-model.ts";
import { renderForm } from "../kit/render.ts";
import { sendPage } from "../kit/send.ts";
import { MFA_TEXTS } from "./texts.ts";

/** The second step of a login with TOTP on (428): one code input; the MFA token rides hidden. */
export function showMfaPage(v: HostedView, mfaToken: string, error?: string): FastifyReply {
  const t = MFA_TEXTS[v.lang];
  const field: FormField = { ...codeField(v.lang), label: t.mfaCode, ...(error ? { alerted: true } : {}) };
  const html = renderForm({
    lang: v.lang,
    appName: appNameOf(v),
    title: t.mfaTitle,
    lead: t.mfaText,
    ...(error ? { alert: { text: error } } : {}),
    action: FORM_ACTION,
    hidden: [
      { name: "form_token", value: formTokenOf(v) },
      { name: "mfa_token", value: mfaToken },
    ],
    fields: [field],
    primary: { label: t.mfaSubmit },
    foot: [backToSignIn(v)],
  });
  return sendPage(v.reply, error ? 400 : 200, html);
}
