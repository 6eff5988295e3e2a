import type { Locale } from "@gatehouse/errors";
import type { PendingAssertion } from "@gatehouse/proto";
import { localized } from "../../http/terms.ts";
import type { FormField } from "../kit/form-model.ts";
import { renderForm } from "../kit/render.ts";
import { TERMS_TEXTS } from "./texts.ts";

// The hosted terms page of a 451 answer: every pending assertion with a
// checkbox (mandatory ones marked), one form posting back with the token.

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
    // TERMS_PATH, relative to the page (which is there too).
    action: "terms",
    hidden,
    legend: t.title,
    fields,
    primary: { label: t.submit },
  });
}
