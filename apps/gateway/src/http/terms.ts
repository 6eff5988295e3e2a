import type { FastifyReply } from "fastify";
import type { ErrorFacts, Locale } from "@gatehouse/errors";
import { sendError } from "./envelope.ts";

/** The hosted terms page of a 451 answer (`content.url`, with `?token=`). */
export const TERMS_PATH = "/activityid/v1/user/terms";

/** A pending assertion as the users service puts it in the TERMS_NOT_ACCEPTED metadata (or GetPendingTerms). */
export interface PendingItem {
  key: string;
  version: string;
  displayName: Record<string, string>;
  type: string;
  typology: string;
  property: string;
  mandatory: boolean;
}

/** The text in the request's language, else English, else any. */
export const localized = (texts: Record<string, string>, lang: Locale) => texts[lang] ?? texts.en ?? Object.values(texts)[0] ?? "";

/** `content.assertions.items[n]` of the spec's 451 table, plus `key` and `version` (what an answer names). */
export function assertionItem(a: PendingItem, lang: Locale) {
  return {
    objectType: "assertion" as const,
    key: a.key,
    version: a.version,
    displayName: localized(a.displayName, lang),
    type: a.type,
    mandatory: a.mandatory,
    typology: a.typology,
    property: a.property,
  };
}

function pendingOf(f: ErrorFacts): PendingItem[] {
  try {
    const parsed: unknown = JSON.parse(f.metadata.assertions ?? "[]");
    return Array.isArray(parsed) ? (parsed as PendingItem[]) : [];
  } catch {
    return [];
  }
}

/**
 * The login's 451 (TERMS_NOT_ACCEPTED): the contract's error envelope plus
 * `content.url` (the hosted terms page with its sealed token) and
 * `content.assertions` (every assertion the user still has to answer).
 */
export function sendTermsRequired(reply: FastifyReply, publicBaseUrl: string, f: ErrorFacts) {
  const lang = reply.request.locale;
  const token = f.metadata.terms_token ?? "";
  const url = `${publicBaseUrl}${TERMS_PATH}?token=${encodeURIComponent(token)}`;
  const items = pendingOf(f).map((a) => assertionItem(a, lang));
  return sendError(reply, "TERMS_NOT_ACCEPTED", { content: { url, assertions: { objectType: "assertions", items } } });
}
