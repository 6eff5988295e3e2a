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
  if (!name)
    throw validationError([{ field: "kind", code: kind === CatalogKind.UNSPECIFIED ? "required" : "invalid_value" }]);
  return name;
}

/** Formats of a data field's value (contract section 6). */
export const FIELD_FORMATS = ["text", "date", "email", "phone", "number", "boolean"] as const;

/**
 * Keys a data field cannot take. A data field's key is its input's `name` on
 * the hosted pages (contract section 8) and its member of `object.datas`
 * beside `object.ids`: the identifier keys, the credentials and the names the
 * hosted pages give their own inputs (apps/gateway/src/hosted) would collide.
 */
export const RESERVED_DATA_FIELD_KEYS: readonly string[] = [
  ...["email", "phone_number", "national_id", "screen_name"],
  ...["password", "new_password", "code"],
  ...[
    "form_token",
    "flow_token",
    "mfa_token",
    "enrol_token",
    "intent",
    "page",
    "key",
    "missing",
    "shown",
    "resend",
    "send_code",
    "to",
  ],
  ...["totp_secret", "otpauth_url"],
];

/**
 * Catalog keys are read (shared) by whatever references them and removed
 * (exclusive) by a deletion, under one transaction-scoped advisory lock: a
 * deletion cannot slip between the check of a new reference and its insert.
 */
export async function lockCatalogs(q: Queryable, mode: "reference" | "delete"): Promise<void> {
  const fn = mode === "delete" ? "pg_advisory_xact_lock" : "pg_advisory_xact_lock_shared";
  await q.query(`SELECT ${fn}(hashtext('gatehouse:registry:catalogs'))`);
}
