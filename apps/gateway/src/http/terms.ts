import type { Locale } from "@gatehouse/errors";
import type { PendingAssertion } from "@gatehouse/proto";

/** The text in the request's language, else English, else any. */
export const localized = (texts: Record<string, string>, lang: Locale) =>
  texts[lang] ?? texts.en ?? Object.values(texts)[0] ?? "";

/** `content.assertions.items[n]` of the spec's 451 table, plus `key` and `version` (what an answer names). */
export function assertionItem(a: PendingAssertion, lang: Locale) {
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
