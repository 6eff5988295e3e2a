import { errorTable, itemMessages, type Locale, type Reason } from "./table.ts";
import type { Violation } from "./connect.ts";

export interface ErrorItem {
  field: string;
  code: string;
  message: string;
}

export interface ErrorEnvelope {
  result: { status: number; elapsed: number };
  errors: { code: string; message: string; details: string; items: ErrorItem[]; subcode?: number };
}

/** First supported language of an Accept-Language header (en by default). */
export function pickLocale(acceptLanguage: string | undefined): Locale {
  if (!acceptLanguage) return "en";
  const ranked = acceptLanguage
    .split(",")
    .map((part, i) => {
      const [tag = "", ...params] = part.trim().toLowerCase().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q ? Number(q.slice(2)) : 1;
      return { lang: tag.split("-")[0] ?? "", weight: Number.isFinite(weight) ? weight : 0, i };
    })
    .filter((x) => x.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.i - b.i);
  for (const { lang } of ranked) if (lang === "en" || lang === "es") return lang;
  return "en";
}

export function localizeItem(v: Violation, locale: Locale): ErrorItem {
  const msg = itemMessages[v.code]?.[locale] ?? itemMessages.invalid_value![locale];
  return { field: v.field, code: v.code, message: msg };
}

/** `field: code`, and what happened when the violation says more than its code (`… (not one of this entry point's data fields (name))`). */
function detailOf(v: Violation): string {
  return v.description && v.description !== v.code
    ? `${v.field}: ${v.code} (${v.description})`
    : `${v.field}: ${v.code}`;
}

/**
 * The contract names some refusals by their code: section 17's
 * `password_weak` ("refused with password_weak, 400 at registration, 416 at
 * replace and patch"), section 11's unreachable issuer ("400 `invalid_value`
 * naming `issuer`") and section 17's number outside an application's
 * calling codes ("400/416 `invalid_value` naming the field"). When such a
 * refusal is a request's only problem it is `errors.code` too, with the
 * status of its validation and the item naming the field; any other
 * validation stays `validation_failed` with its items.
 */
const NAMED_REFUSALS: Record<string, (field: string) => boolean> = {
  password_weak: () => true,
  invalid_value: (field) => field === "issuer" || /(^|\.)ids\.phone_number\.value$/.test(field),
};

function publicCode(reason: Reason, violations: Violation[] | undefined): string {
  if ((reason === "VALIDATION_FAILED" || reason === "CONSTRAINT_VIOLATION") && violations?.length) {
    const code = violations[0]!.code;
    const named = NAMED_REFUSALS[code];
    if (named && violations.every((v) => v.code === code && named(v.field))) return code;
  }
  return reason.toLowerCase();
}

/** The contract section 2 error envelope for a reason. */
export function errorEnvelope(args: {
  reason: Reason;
  locale: Locale;
  elapsed: number;
  details?: string;
  violations?: Violation[];
  singleItem?: boolean;
  status?: number;
  subcode?: number;
}): ErrorEnvelope {
  const def = errorTable[args.reason];
  const status = args.status ?? def.http;
  let items = (args.violations ?? []).map((v) => localizeItem(v, args.locale));
  if (args.singleItem) items = items.slice(0, 1);
  const details =
    args.details ??
    (items.length ? (args.violations ?? []).slice(0, items.length).map(detailOf).join("; ") : def.message.en);
  const errors: ErrorEnvelope["errors"] = {
    code: publicCode(args.reason, args.violations),
    message: def.message[args.locale],
    details,
    items,
  };
  if (args.subcode !== undefined) errors.subcode = args.subcode;
  return { result: { status, elapsed: args.elapsed }, errors };
}

export function httpStatusOf(reason: Reason): number {
  return errorTable[reason].http;
}
