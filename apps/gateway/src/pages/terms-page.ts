import { createHash } from "node:crypto";
import type { FastifyReply } from "fastify";
import type { Locale } from "@gatehouse/errors";
import type { PendingAssertion } from "@gatehouse/proto";
import { localized } from "../http/terms.ts";

// The hosted terms page of a 451 answer: every pending assertion with a
// checkbox (mandatory ones marked), one form posting back with the token.

export const TERMS_TEXTS = {
  en: {
    title: "Terms and conditions",
    intro: "Please read and answer the following before you sign in.",
    required: "required",
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
    required: "obligatorio",
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

const esc = (v: string) => v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = [
  "body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#f4f5f7}",
  "main{max-width:32rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:.5rem}",
  "fieldset{border:0;padding:0;margin:0}",
  ".item{display:flex;gap:.75rem;align-items:flex-start;margin:1rem 0}",
  ".item input{width:1.25rem;height:1.25rem;margin-top:.15rem}",
  ".req{font-weight:600;color:#a50e0e}",
  ".error{color:#a50e0e;background:#fce8e6;padding:.75rem;border-radius:.25rem}",
  "button{width:100%;margin-top:1rem;padding:.75rem;font-size:1rem;font-weight:600;color:#fff;background:#1557b0;border:0;border-radius:.25rem}",
  "input:focus,button:focus{outline:3px solid #1557b0;outline-offset:2px}",
].join("");
const STYLE_HASH = createHash("sha256").update(STYLE).digest("base64");

function document(lang: Locale, title: string, body: string): string {
  return `<!doctype html>\n<html lang="${lang}">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta name="referrer" content="no-referrer">\n<title>${esc(title)}</title>\n<style>${STYLE}</style>\n</head>\n<body><main>${body}</main></body>\n</html>`;
}

/** The form: a checkbox per assertion (name `accept`, value the key), the versions shown and the token hidden. */
export function termsForm(lang: Locale, token: string, items: PendingAssertion[], error?: string): string {
  const t = TERMS_TEXTS[lang];
  const rows = items.map((a, i) => {
    const id = `a${i}`;
    const mark = a.mandatory ? ` <span class="req">(${esc(t.required)})</span>` : "";
    return [
      `<div class="item">`,
      `<input type="hidden" name="shown" value="${esc(a.key)}">`,
      `<input type="hidden" name="version.${esc(a.key)}" value="${esc(a.version)}">`,
      `<input type="checkbox" id="${id}" name="accept" value="${esc(a.key)}"${a.mandatory ? ' required aria-required="true"' : ""}>`,
      `<label for="${id}">${esc(localized(a.displayName, lang))}${mark}</label>`,
      `</div>`,
    ].join("");
  });
  const body = [
    `<h1>${esc(t.title)}</h1>`,
    error ? `<p class="error" role="alert">${esc(error)}</p>` : `<p>${esc(t.intro)}</p>`,
    '<form method="post" action="terms">',
    `<input type="hidden" name="token" value="${esc(token)}">`,
    `<fieldset><legend>${esc(t.title)}</legend>`,
    ...rows,
    "</fieldset>",
    `<button type="submit">${esc(t.submit)}</button>`,
    "</form>",
  ];
  return document(lang, t.title, body.join("\n"));
}

export function termsMessage(lang: Locale, title: string, text: string): string {
  return document(lang, title, `<h1>${esc(title)}</h1>\n<p role="status">${esc(text)}</p>`);
}

/** Never cached (the page carries the token), never framed, no script, no referrer leaking the query. */
export function sendTermsPage(reply: FastifyReply, status: number, html: string) {
  return reply
    .code(status)
    .type("text/html; charset=utf-8")
    .headers({
      "cache-control": "no-store",
      "x-frame-options": "DENY",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "content-security-policy": `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    })
    .send(html);
}
