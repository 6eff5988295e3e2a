import type { Db } from "@gatehouse/db";
import { domainError, validationError, type Violation } from "@gatehouse/errors";
import { auditStore } from "../audit/store.ts";
import { lockCatalogs } from "../catalogs/kinds.ts";
import { catalogStore, type CatalogSnapshot } from "../catalogs/store.ts";
import { assertionStore, isVersionTaken, type AssertionRow } from "./store.ts";

export const PUBLISH_ACTION = "legal_assertion.publish";
/** Assertions without a property belong to the shipped one. */
export const DEFAULT_PROPERTY = "default";

const KEY = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const LANGUAGE = /^[a-z]{2}(-[A-Z]{2})?$/;
const MAX_VERSION = 64;
const MAX_TEXT = 4000;
const MAX_LANGUAGES = 20;

export interface PublishInput {
  key: string;
  displayName: Record<string, string>;
  type: string;
  typology: string;
  property: string;
  mandatory: boolean;
  version: string;
}

function keyLike(out: Violation[], field: string, value: string): void {
  if (!value) out.push({ field, code: "required" });
  else if (!KEY.test(value))
    out.push({ field, code: "invalid_format", description: "must match ^[a-z0-9][a-z0-9_-]{0,31}$" });
}

/** Every rule of a publication, each broken one a violation named by its JSON path. */
export function checkAssertion(input: PublishInput, catalogs: CatalogSnapshot): Violation[] {
  const out: Violation[] = [];
  keyLike(out, "key", input.key);
  keyLike(out, "type", input.type);
  const languages = Object.entries(input.displayName);
  if (languages.length > MAX_LANGUAGES) out.push({ field: "displayName", code: "too_many" });
  for (const [lang, text] of languages) {
    if (!LANGUAGE.test(lang))
      out.push({
        field: `displayName.${lang}`,
        code: "invalid_format",
        description: "a language tag such as en or es",
      });
    else if (!text.trim()) out.push({ field: `displayName.${lang}`, code: "required" });
    else if ([...text].length > MAX_TEXT) out.push({ field: `displayName.${lang}`, code: "too_long" });
  }
  if (input.displayName.en === undefined) out.push({ field: "displayName.en", code: "required" });
  if (!input.typology) out.push({ field: "typology", code: "required" });
  else if (!catalogs.typology.has(input.typology)) out.push({ field: "typology", code: "unknown_key" });
  if (!catalogs.property.has(input.property || DEFAULT_PROPERTY)) out.push({ field: "property", code: "unknown_key" });
  if (!input.version.trim()) out.push({ field: "version", code: "required" });
  else if (input.version.length > MAX_VERSION) out.push({ field: "version", code: "too_long" });
  // eslint-disable-next-line no-control-regex
  else if (/[\u0000-\u001f\u007f]/.test(input.version) || input.version !== input.version.trim())
    out.push({ field: "version", code: "invalid_format" });
  return out;
}

/**
 * Publishes a legal assertion or a new version of one (contract section 7):
 * the version must be new for the key (409 otherwise) and becomes the latest.
 * The audit record is written in the same transaction.
 */
export async function publishAssertion(
  db: Db,
  catalogs: CatalogSnapshot,
  input: PublishInput,
  who: { actor: string; address: string },
): Promise<AssertionRow> {
  const violations = checkAssertion(input, catalogs);
  if (violations.length) throw validationError(violations);
  const property = input.property || DEFAULT_PROPERTY;
  try {
    return await db.tx(async (q) => {
      // Under the catalogs' shared lock, so that the typology and property cannot be deleted meanwhile.
      await lockCatalogs(q, "reference");
      const stale = checkAssertion(input, await catalogStore(q).snapshot());
      if (stale.length) throw validationError(stale);
      const stored = await assertionStore(q).insert({ ...input, property, publishedBy: who.actor });
      await auditStore(q).record({
        ...who,
        action: PUBLISH_ACTION,
        target: input.key,
        details: { version: input.version, typology: input.typology, mandatory: input.mandatory },
      });
      return stored;
    });
  } catch (err) {
    if (!isVersionTaken(err)) throw err;
    throw domainError("ASSERTION_VERSION_TAKEN", undefined, {
      metadata: { key: input.key, version: input.version },
      violations: [{ field: "version", code: "duplicate" }],
    });
  }
}
