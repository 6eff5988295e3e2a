import type { FastifyReply } from "fastify";
import type { Locale } from "@gatehouse/errors";
import { renderForm, renderMessage } from "../kit/render.ts";
import { sendPage } from "../kit/send.ts";
import { DEVICE_PATH } from "../paths.ts";
import { DEVICE_TEXTS, type DeviceKind } from "./texts.ts";

// The /device pages: enter the code, approve or deny, done. Forms post to
// DEVICE_PATH (absolute: the decision page is at /device/callback).

const ACTION = DEVICE_PATH;
const LANG_NAMES = { en: "English", es: "Español" } as const;

/** The code form; `value` is shown again (a prefilled verification_uri_complete, or a wrong code). */
export function sendEnterPage(
  reply: FastifyReply,
  status: number,
  o: { lang: Locale; formToken: string; value: string; error?: string },
) {
  const t = DEVICE_TEXTS[o.lang];
  const query = (l: Locale) =>
    new URLSearchParams({ ui_locales: l, ...(o.value && !o.error ? { user_code: o.value } : {}) }).toString();
  const html = renderForm({
    lang: o.lang,
    languages: (["en", "es"] as const)
      .filter((l) => l !== o.lang)
      .map((l) => ({ lang: l, label: LANG_NAMES[l], href: `${ACTION}?${query(l)}` })),
    title: t.enterTitle,
    lead: t.enterLead,
    ...(o.error ? { alert: { text: o.error, items: [{ id: "user_code", text: t.codeLabel }] } } : {}),
    action: ACTION,
    hidden: [{ name: "form_token", value: o.formToken }],
    fields: [
      {
        name: "user_code",
        id: "user_code",
        type: "text",
        label: t.codeLabel,
        hint: t.codeHint,
        required: true,
        autocomplete: "one-time-code",
        value: o.value,
        ...(o.error ? { error: o.error, alerted: true } : {}),
      },
    ],
    primary: { label: t.continue },
  });
  return sendPage(reply, status, html);
}

/** "Sign in on <application> on your TV?" with Approve and Deny. */
export function sendDecisionPage(
  reply: FastifyReply,
  o: { lang: Locale; formToken: string; appName: string; kind: DeviceKind; userCode: string },
) {
  const t = DEVICE_TEXTS[o.lang];
  const html = renderForm({
    lang: o.lang,
    appName: o.appName,
    title: t.approveTitle(o.appName, o.kind),
    lead: t.approveLead(o.userCode),
    action: ACTION,
    hidden: [{ name: "form_token", value: o.formToken }],
    fields: [],
    primary: { label: t.approve, name: "decision", value: "approve" },
    secondary: { label: t.deny, name: "deny" },
  });
  return sendPage(reply, 200, html);
}

const againLink = (lang: Locale) => ({
  href: `${DEVICE_PATH}?ui_locales=${lang}`,
  label: DEVICE_TEXTS[lang].enterAgain,
});

/** The end: approved or denied. */
export function sendDonePage(
  reply: FastifyReply,
  o: { lang: Locale; approved: boolean; appName: string; kind: DeviceKind },
) {
  const t = DEVICE_TEXTS[o.lang];
  const html = renderMessage({
    lang: o.lang,
    appName: o.appName,
    title: o.approved ? t.approvedTitle : t.deniedTitle,
    text: o.approved ? t.approvedText(o.kind) : t.deniedText,
  });
  return sendPage(reply, 200, html);
}

/** A page that cannot go on (an expired page, a used code, a sign-in that ended in an error): enter the code again. */
export function sendDeviceProblem(reply: FastifyReply, status: number, lang: Locale, title: string, text: string) {
  return sendPage(reply, status, renderMessage({ lang, title, text, links: [againLink(lang)], primaryLink: true }));
}
