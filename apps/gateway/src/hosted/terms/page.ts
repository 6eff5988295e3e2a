import type { FastifyReply } from "fastify";
import type { Locale } from "@gatehouse/errors";
import type { PendingAssertion } from "@gatehouse/proto";
import type { FormField } from "../kit/form-model.ts";
import { renderForm, renderMessage } from "../kit/render.ts";
import { HOSTED_CSS_HASH } from "../kit/styles.ts";
import { localized } from "../../http/terms.ts";

// The hosted terms page of a 451 answer: every pending assertion with a
// checkbox (mandatory ones marked), one form posting back with the token.

export const TERMS_TEXTS = {
  en: {
    title: "Terms and conditions",
    intro: "Please read and answer the following before you sign in.",
    requiredMark: "(required)",
    submit: "Continue",
    mandatoryMissing: "You must accept every item marked as required to continue.",
    changed: "The terms have changed since this page was shown. Please read them again.",
    doneTitle: "Thank you",
    doneText: "Your answers were recorded. You can now sign in again from the application.",
    invalidTitle: "Link not valid",
    invalidText: "This link is not valid or has expired. Sign in again to get a new one.",
    forbidden: "This form must be sent from the page that showed it.",
  },
  es: {
    title: "Términos y condiciones",
    intro: "Lee y responde lo siguiente antes de iniciar sesión.",
    requiredMark: "(obligatorio)",
    submit: "Continuar",
    mandatoryMissing: "Debes aceptar todos los elementos marcados como obligatorios para continuar.",
    changed: "Los términos han cambiado desde que se mostró esta página. Vuelve a leerlos.",
    doneTitle: "Gracias",
    doneText: "Hemos registrado tus respuestas. Ya puedes volver a iniciar sesión desde la aplicación.",
    invalidTitle: "Enlace no válido",
    invalidText: "Este enlace no es válido o ha caducado. Vuelve a iniciar sesión para obtener otro.",
    forbidden: "Este formulario debe enviarse desde la página que lo mostró.",
  },
} satisfies Record<Locale, Record<string, string>>;

/** The form: a checkbox per assertion (name `accept`, value the key), the versions shown and the token hidden. */
export function termsForm(lang: Locale, token: string, items: PendingAssertion[], error?: string): string {
  const t = TERMS_TEXTS[lang];
  const hidden = [{ name: "token", value: token }];
  for (const a of items) hidden.push({ name: "shown", value: a.key }, { name: `version.${a.key}`, value: a.version });
  const fields: FormField[] = items.map((a, i) => ({
    name: "accept",
    id: `a${i}`,
    type: "checkbox",
    label: a.mandatory ? `${localized(a.displayName, lang)} ${t.requiredMark}` : localized(a.displayName, lang),
    required: a.mandatory,
    value: a.key,
  }));
  return renderForm({
    lang,
    title: t.title,
    lead: t.intro,
    ...(error ? { alert: { text: error } } : {}),
    action: "terms",
    hidden,
    legend: t.title,
    fields,
    primary: { label: t.submit },
  });
}

export function termsMessage(lang: Locale, title: string, text: string): string {
  return renderMessage({ lang, title, text });
}

/** Never cached (the page carries the token), never framed, no script, no referrer leaking the query; posts only to itself. */
export function sendTermsPage(reply: FastifyReply, status: number, html: string) {
  return reply
    .code(status)
    .type("text/html; charset=utf-8")
    .headers({
      "cache-control": "no-store",
      "x-frame-options": "DENY",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "content-security-policy": `default-src 'none'; style-src 'sha256-${HOSTED_CSS_HASH}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    })
    .send(html);
}
