import type { Locale, Violation } from "@gatehouse/errors";
import type { FormField } from "./form-model.ts";
import { KIT_TEXTS } from "./texts.ts";

// A rejected form's errors: each violation of the users service next to the
// input it names, the rest above the form, in the page's words.

/** The input a violation of the users service names (`object.ids.email.value` → `email`). */
export function inputOf(field: string): string {
  const m = /^object\.(ids|datas)\.([^.]+)/.exec(field);
  if (m) return m[2]!;
  const a = /^object\.assertions\.([^.]+)/.exec(field);
  if (a) return `assertion.${a[1]}`;
  return field.replace(/^object\./, "");
}

/** The page's words for a violation of an input. */
export function errorText(lang: Locale, f: FormField, code: string): string {
  const e = KIT_TEXTS[lang].errors;
  switch (code) {
    case "required":
      return f.type === "checkbox" ? e.requiredCheck : e.required;
    case "invalid_format":
      return f.type === "email" ? e.email : f.type === "tel" ? e.tel : f.type === "date" ? e.date : e.format;
    case "too_short":
      return e.tooShort;
    case "too_long":
      return e.tooLong;
    case "password_weak":
      return e.weakPassword;
    case "duplicate":
      return f.name === "email" ? e.takenEmail : f.name === "phone_number" ? e.takenPhone : e.taken;
    default:
      return e.invalid;
  }
}

/**
 * The violations placed next to their inputs (the first per input); the
 * ones that name no input of the form come back, to be shown above it.
 */
export function withErrors(
  fields: FormField[],
  violations: readonly Violation[],
  lang: Locale,
): { fields: FormField[]; unplaced: Violation[] } {
  const first = new Map<string, string>();
  const unplaced: Violation[] = [];
  for (const v of violations) {
    const name = inputOf(v.field);
    if (!fields.some((f) => f.name === name)) unplaced.push(v);
    else if (!first.has(name)) first.set(name, v.code);
  }
  return {
    fields: fields.map((f) => (first.has(f.name) ? { ...f, error: errorText(lang, f, first.get(f.name)!) } : f)),
    unplaced,
  };
}

/** The alert of a rejected form: "There is a problem", a link to each input in error, and what names no input (unlinked). */
export function problemAlert(lang: Locale, fields: FormField[], unplaced: readonly Violation[] = []) {
  const e = KIT_TEXTS[lang].errors;
  const items = fields.filter((f) => f.error).map((f) => ({ id: f.id, text: `${f.label}: ${f.error}` }));
  for (const u of unplaced)
    items.push({ id: "", text: u.field === "object.password" ? e.noPassword : `${u.field}: ${e.invalid}` });
  if (!items.length) return undefined;
  return { text: KIT_TEXTS[lang].problemTitle, items };
}
