import type { Locale } from "@gatehouse/errors";
import { create } from "@bufbuild/protobuf";
import { FieldConfigSchema, type Entrypoint, type FieldConfig } from "@gatehouse/proto";
import { labelOf } from "./labels.ts";
import { KIT_TEXTS } from "./texts.ts";

// The hosted pages' forms as data, built from an entry point's fieldConfig
// (contract section 8): one input per field in the entry point's order,
// `name` = the key, `required` when mandatory, the input type from the key
// or the catalog's format. Pure: the templates only render it.

export type InputType = "text" | "email" | "tel" | "date" | "number" | "password" | "checkbox";

export interface FormField {
  /** The form's name of the input: the field key, `password`, `code` or `assertion.<key>`. */
  name: string;
  /** The element id (labels and errors point to it). */
  id: string;
  type: InputType;
  label: string;
  required: boolean;
  autocomplete?: string;
  inputmode?: string;
  /** The value to show again (never a password). */
  value: string;
  checked?: boolean;
  hint?: string;
  /** The localized error shown next to the input. */
  error?: string;
  readonly?: boolean;
  autofocus?: boolean;
  /** The form-level alert (`#form-error`) is about this input too (a wrong password marks both inputs). */
  alerted?: boolean;
}

/** A data field's format from the operator catalog ("text", "date", "email", "phone", "number", "boolean"; older "string"). */
export type Formats = ReadonlyMap<string, { format: string; displayName: string }>;

const BY_KEY: Record<string, { type: InputType; autocomplete?: string; inputmode?: string }> = {
  email: { type: "email", autocomplete: "email", inputmode: "email" },
  phone_number: { type: "tel", autocomplete: "tel", inputmode: "tel" },
  screen_name: { type: "text", autocomplete: "username" },
  national_id: { type: "text", autocomplete: "off" },
  name: { type: "text", autocomplete: "given-name" },
  surname: { type: "text", autocomplete: "family-name" },
  birthday: { type: "date", autocomplete: "bday" },
  gender: { type: "text", autocomplete: "sex" },
  nickname: { type: "text", autocomplete: "nickname" },
  locale: { type: "text", autocomplete: "language" },
  country: { type: "text", autocomplete: "country-name" },
  postal_code: { type: "text", autocomplete: "postal-code" },
};

const BY_FORMAT: Record<string, InputType> = {
  date: "date",
  email: "email",
  phone: "tel",
  number: "number",
  boolean: "checkbox",
};

/**
 * The input type of a field: the key's when the key names a typed input
 * (email, tel, date), else the catalog format's (an operator may give a
 * shipped text field a format), else text.
 */
export function inputTypeOf(key: string, format?: string): InputType {
  const byKey = BY_KEY[key]?.type;
  if (byKey && byKey !== "text") return byKey;
  return BY_FORMAT[format ?? ""] ?? byKey ?? "text";
}

/** An HTML id from a form name (`assertion.terms` → `assertion-terms`). */
export const idOf = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, "-");

/** Mandatory as the contract reads it: id fields say so, data fields default to true. */
export const isMandatory = (f: FieldConfig) => (f.type === "id" ? Boolean(f.mandatory) : (f.mandatory ?? true));

/** The step a field is asked in: id fields always in the first. */
export const stepOf = (f: FieldConfig) => (f.type === "id" ? 1 : Math.max(1, f.step ?? 1));

/** A two-step entry point asks some fields on a second page. */
export const isTwoStep = (ep: Entrypoint) => ep.fields.some((f) => stepOf(f) === 2);

/** The identifier the login page asks for: the main id when it is the phone, else the email. */
export function loginIdKey(ep: Entrypoint): "email" | "phone_number" {
  const ids = ep.fields.filter((f) => f.type === "id");
  const main = ids.find((f) => f.main) ?? (ids.length === 1 ? ids[0] : undefined);
  if (main?.key === "phone_number") return "phone_number";
  if (!ids.some((f) => f.key === "email") && ids.some((f) => f.key === "phone_number")) return "phone_number";
  return "email";
}

/** One input of a fieldConfig entry. */
export function fieldOf(
  f: FieldConfig,
  lang: Locale,
  formats: Formats,
  values: Record<string, string> = {},
): FormField {
  const catalog = formats.get(f.key);
  const type = inputTypeOf(f.key, catalog?.format);
  // The key's autocomplete hint only while its input keeps the key's type.
  const known = BY_KEY[f.key]?.type === type ? BY_KEY[f.key] : undefined;
  return {
    name: f.key,
    id: idOf(f.key),
    type,
    label: labelOf(lang, f.key, catalog?.displayName),
    required: isMandatory(f),
    ...(known?.autocomplete ? { autocomplete: known.autocomplete } : {}),
    ...(known?.inputmode ? { inputmode: known.inputmode } : type === "number" ? { inputmode: "decimal" } : {}),
    value: type === "checkbox" ? "true" : (values[f.key] ?? ""),
    ...(type === "checkbox" ? { checked: values[f.key] === "true" } : {}),
    // Numbers are stored in E.164: say so before the first error does.
    ...(f.key === "phone_number" ? { hint: KIT_TEXTS[lang].phoneHint } : {}),
  };
}

/** The password input: a new one (registration, activation) or the current one (login). */
export function passwordField(lang: Locale, purpose: "new" | "current"): FormField {
  return {
    name: "password",
    id: idOf("password"),
    type: "password",
    label: labelOf(lang, "password"),
    required: true,
    autocomplete: purpose === "new" ? "new-password" : "current-password",
    value: "",
    ...(purpose === "new" ? { hint: KIT_TEXTS[lang].passwordHint } : {}),
  };
}

/** A legal assertion to accept: a checkbox named `assertion.<key>`. */
export function assertionField(key: string, label: string, mandatory: boolean, checked: boolean): FormField {
  return {
    name: `assertion.${key}`,
    id: idOf(`assertion.${key}`),
    type: "checkbox",
    label,
    required: mandatory,
    value: "true",
    checked,
  };
}

/** The one-time code input (6 digits, filled from the message by the platform when it can). */
export function codeField(lang: Locale, hint?: string): FormField {
  return {
    name: "code",
    id: idOf("code"),
    type: "text",
    label: KIT_TEXTS[lang].codeLabel,
    required: true,
    autocomplete: "one-time-code",
    inputmode: "numeric",
    value: "",
    ...(hint ? { hint } : {}),
  };
}

export interface RegistrationForm {
  fields: FormField[];
  /** 1 or 2 of a two-step entry point; undefined for a one-step one. */
  step?: 1 | 2;
}

/**
 * The registration page of an entry point: its fields of step 1 in order (all
 * of them for a one-step entry point), the password unless passwordless, a
 * checkbox per mandatory legal assertion. Values typed are kept, except the password.
 */
export function registrationForm(
  ep: Entrypoint,
  opts: {
    lang: Locale;
    formats: Formats;
    assertions: { key: string; label: string }[];
    values?: Record<string, string>;
    /** Social sign-in's registration: every field on one page, no password, the provider's email as given. */
    upstream?: { email: string };
  },
): RegistrationForm {
  const twoStep = isTwoStep(ep) && !opts.upstream;
  const values: Record<string, string> = {
    ...opts.values,
    ...(opts.upstream?.email ? { email: opts.upstream.email } : {}),
  };
  const fields = ep.fields
    .filter((f) => !twoStep || stepOf(f) === 1)
    .map((f) => fieldOf(f, opts.lang, opts.formats, values))
    .map((f) => (opts.upstream?.email && f.name === "email" ? { ...f, readonly: true } : f));
  if (!ep.passwordless && !opts.upstream) fields.push(passwordField(opts.lang, "new"));
  for (const a of opts.assertions)
    fields.push(assertionField(a.key, a.label, true, values[`assertion.${a.key}`] === "true"));
  return { fields, ...(twoStep ? { step: 1 as const } : {}) };
}

/** The second page of a two-step entry point: its step 2 fields, mandatory ones required. */
export function secondStepForm(
  ep: Entrypoint,
  opts: { lang: Locale; formats: Formats; values?: Record<string, string> },
): FormField[] {
  return ep.fields.filter((f) => stepOf(f) === 2).map((f) => fieldOf(f, opts.lang, opts.formats, opts.values));
}

/** The fields named by `keys` (missing mandatory data, `useForValidation` values), in the entry point's order, all required. */
export function fieldsFor(
  ep: Entrypoint,
  keys: readonly string[],
  opts: { lang: Locale; formats: Formats; values?: Record<string, string> },
): FormField[] {
  return ep.fields
    .filter((f) => f.type === "field" && keys.includes(f.key))
    .map((f) => ({ ...fieldOf(f, opts.lang, opts.formats, opts.values), required: true }));
}

/** The login page: the main identifier (email, or the phone) and the password unless passwordless. */
export function loginForm(ep: Entrypoint, lang: Locale, value = ""): FormField[] {
  const key = loginIdKey(ep);
  const field = create(FieldConfigSchema, { objectType: "fieldConfig", type: "id", key, mandatory: true });
  const id: FormField = { ...fieldOf(field, lang, new Map(), { [key]: value }), autocomplete: "username" };
  return ep.passwordless ? [id] : [id, passwordField(lang, "current")];
}
