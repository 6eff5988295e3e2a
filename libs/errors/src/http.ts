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
 * Section 17 names `password_weak` as the refusal itself ("refused with
 * password_weak, 400 at registration, 416 at replace and patch"): when a weak
 * password is a request's only problem it is `errors.code` too, with the
 * status of its validation (400 or 416) and the item naming the field.
 */
function publicCode(reason: Reason, violations: Violation[] | undefined): string {
  const weakOnly =
    (reason === "VALIDATION_FAILED" || reason === "CONSTRAINT_VIOLATION") &&
    !!violations?.length &&
    violations.every((v) => v.code === "password_weak");
  return weakOnly ? "password_weak" : reason.toLowerCase();
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
