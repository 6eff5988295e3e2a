import { fileURLToPath } from "node:url";
import { Eta } from "eta";
import type { Locale } from "@gatehouse/errors";
import type { FormField } from "./form-model.ts";
import { HOSTED_CSS } from "./styles.ts";
import { KIT_TEXTS } from "./texts.ts";

// Server-rendered hosted pages: Eta templates (../templates) with automatic
// HTML escaping of every `<%= %>`; the only raw output is the stylesheet and
// the rendered body inside the layout.
const eta = new Eta({ views: fileURLToPath(new URL("../templates", import.meta.url)), cache: true, autoEscape: true });

/** What the layout shows around every page: the application's name and monogram, the language links. */
export interface PageFrame {
  lang: Locale;
  /** The application's display name; the brand header is left out without it. */
  appName?: string;
  /** Links to the same page in the other languages (GET pages only). */
  languages?: { lang: Locale; label: string; href: string }[];
  /** Same-origin scripts the page loads, in order (`defer`; the page's CSP must allow them: send.ts SCRIPT_POLICY). */
  scripts?: string[];
}

export interface FormPage extends PageFrame {
  title: string;
  lead?: string;
  /** Where a code went, shown in bold after the lead. */
  leadTo?: string;
  stepLabel?: string;
  /** The alert above the form (role=alert): a message and links to the inputs in error. */
  alert?: { text: string; items?: { id: string; text: string }[] };
  /** A status line (role=status): a code was sent again. */
  notice?: string;
  action: string;
  hidden: { name: string; value: string }[];
  legend?: string;
  fields: FormField[];
  primary: { label: string; name?: string; value?: string; novalidate?: boolean };
  /** A second submit button (`<input type=submit>`, no form validation): "email me a code", "send a new code". */
  secondary?: { label: string; name: string; divider?: boolean };
  /** Social sign-in: one submit per identity provider (`name="idp"`, its key), below the form's own buttons. */
  providers?: { or: string; buttons: { key: string; label: string }[] };
  foot?: { text?: string; href: string; label: string }[];
  /**
   * Passkey sign-in (contract section 12): the request options on the form
   * for the script, the token and an empty credential input it fills, and a
   * button it shows (hidden without JavaScript) with its failure message.
   */
  passkey?: { options: string; token: string; label: string; failed: string };
  /** The ALTCHA widget before the buttons (section 17): its signed challenge (JSON) and what shows without JavaScript. */
  captcha?: CaptchaBox;
}

/** The ALTCHA widget of a form: the page loads its module scripts and stylesheet (same origin) and sends the captcha CSP. */
export interface CaptchaBox {
  challenge: string;
  /** The widget's language ("en", "es-es"). */
  language: string;
  /** Said in <noscript>: the check needs JavaScript. */
  noscript: string;
  modules: string[];
  stylesheet: string;
}

export interface MessagePage extends PageFrame {
  title: string;
  text: string;
  links?: { href: string; label: string }[];
  /** The first link is the page's main action (a button). */
  primaryLink?: boolean;
}

const monogram = (name: string) => ([...name.trim()][0] ?? "").toLocaleUpperCase();

function frame(p: PageFrame) {
  return { t: KIT_TEXTS[p.lang], css: HOSTED_CSS, monogram: monogram(p.appName ?? "") };
}

/** The input that gets the focus: the first in error, else the first text input still empty (the password after a wrong one); else none. */
function focusIndex(fields: FormField[]): number {
  const error = fields.findIndex((f) => f.error);
  return error >= 0 ? error : fields.findIndex((f) => f.type !== "checkbox" && !f.readonly && f.value === "");
}

/** A page with a form; one input gets the focus (focusIndex). */
export function renderForm(p: FormPage): string {
  const focus = focusIndex(p.fields);
  const fields = p.fields.map((f, i) => (i === focus ? { ...f, autofocus: true } : f));
  const head = p.captcha ? { modules: p.captcha.modules, stylesheets: [p.captcha.stylesheet] } : {};
  return eta.render("./form", { ...p, ...frame(p), ...head, fields });
}

export function renderMessage(p: MessagePage): string {
  return eta.render("./message", { ...p, ...frame(p) });
}

/** A page of its own template (the TOTP enrolment, the recovery codes) in the layout. */
export function renderPage(
  template: "enrol" | "recovery" | "passkey-offer",
  p: PageFrame & { title: string } & Record<string, unknown>,
): string {
  return eta.render(`./${template}`, { ...p, ...frame(p) });
}
