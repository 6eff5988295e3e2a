import { validationError } from "@gatehouse/errors";
import { CatalogKind } from "@gatehouse/proto";
import type { Queryable } from "@gatehouse/db";
import type { CatalogKindName } from "./store.ts";

const NAMES: Partial<Record<CatalogKind, CatalogKindName>> = {
  [CatalogKind.ORGANIZATION]: "organization",
  [CatalogKind.BRAND]: "brand",
  [CatalogKind.PROPERTY]: "property",
  [CatalogKind.DATA_FIELD]: "data_field",
  [CatalogKind.TYPOLOGY]: "typology",
};

/** The catalog a request names; `kind` is required. */
export function catalogKindName(kind: CatalogKind): CatalogKindName {
  const name = NAMES[kind];
  if (!name) throw validationError([{ field: "kind", code: kind === CatalogKind.UNSPECIFIED ? "required" : "invalid_value" }]);
  return name;
}

/** Formats of a data field's value (contract section 6). */
export const FIELD_FORMATS = ["text", "date", "email", "phone", "number", "boolean"] as const;

/**
 * Catalog keys are read (shared) by whatever references them and removed
 * (exclusive) by a deletion, under one transaction-scoped advisory lock: a
 * deletion cannot slip between the check of a new reference and its insert.
 */
export async function lockCatalogs(q: Queryable, mode: "reference" | "delete"): Promise<void> {
  const fn = mode === "delete" ? "pg_advisory_xact_lock" : "pg_advisory_xact_lock_shared";
  await q.query(`SELECT ${fn}(hashtext('gatehouse:registry:catalogs'))`);
}
