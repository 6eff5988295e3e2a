import { pageOf, pageSize, readKeyCursor, type AuditContext } from "@gatehouse/admin";
import type { Db } from "@gatehouse/db";
import { domainError, validationError, type Violation } from "@gatehouse/errors";
import { auditStore } from "../audit/store.ts";
import { KEY_PATTERN, MAX_DISPLAY_NAME } from "../formats.ts";
import { catalogKeyInUse } from "./in-use.ts";
import { FIELD_FORMATS, lockCatalogs, RESERVED_DATA_FIELD_KEYS } from "./kinds.ts";
import { catalogAdminStore, type CatalogEntryRow, type CatalogKindName } from "./store.ts";

// The operators' catalog operations (contract section 6). Each change writes
// its audit entry in the same transaction; the target is "<kind>/<key>".

const target = (kind: CatalogKindName, key: string) => `${kind}/${key}`;

function displayNameViolations(out: Violation[], value: string | undefined): void {
  if (value === undefined) return;
  if (!value.trim()) out.push({ field: "displayName", code: "required" });
  else if ([...value].length > MAX_DISPLAY_NAME) out.push({ field: "displayName", code: "too_long" });
}

function formatViolations(out: Violation[], kind: CatalogKindName, format: string | undefined): void {
  if (format === undefined || format === "") return;
  if (kind !== "data_field")
    out.push({ field: "format", code: "not_allowed", description: "only data fields have a format" });
  else if (!(FIELD_FORMATS as readonly string[]).includes(format))
    out.push({ field: "format", code: "invalid_value", description: FIELD_FORMATS.join(", ") });
}

export async function listCatalogEntries(db: Db, kind: CatalogKindName, page: { size: number; cursor: string }) {
  const size = pageSize(page.size);
  return pageOf(await catalogAdminStore(db).page(kind, readKeyCursor(page.cursor), size + 1), size, (e) => e.key);
}

export async function getCatalogEntry(db: Db, kind: CatalogKindName, key: string): Promise<CatalogEntryRow> {
  const entry = await catalogAdminStore(db).get(kind, key);
  if (!entry) throw domainError("CATALOG_ENTRY_NOT_FOUND", undefined, { metadata: { kind, key } });
  return entry;
}

/** Every rule of a new entry: VALIDATION_FAILED with every violation. */
export function checkNewCatalogEntry(kind: CatalogKindName, input: CatalogEntryRow): void {
  const v: Violation[] = [];
  if (!input.key) v.push({ field: "key", code: "required" });
  else if (!KEY_PATTERN.test(input.key))
    v.push({ field: "key", code: "invalid_format", description: "must match ^[a-z0-9][a-z0-9_-]{0,31}$" });
  else if (kind === "data_field" && RESERVED_DATA_FIELD_KEYS.includes(input.key)) {
    v.push({
      field: "key",
      code: "invalid_value",
      description: "reserved: an identifier, a credential or a hosted page's own input",
    });
  }
  displayNameViolations(v, input.displayName);
  formatViolations(v, kind, input.valueType ?? undefined);
  if (v.length) throw validationError(v);
}

export async function createCatalogEntry(
  db: Db,
  kind: CatalogKindName,
  input: CatalogEntryRow,
  who: AuditContext,
): Promise<CatalogEntryRow> {
  checkNewCatalogEntry(kind, input);
  const entry: CatalogEntryRow = {
    key: input.key,
    displayName: input.displayName,
    valueType: kind === "data_field" ? input.valueType || "text" : null,
  };
  return db.tx(async (q) => {
    if (!(await catalogAdminStore(q).insert(kind, entry))) {
      throw domainError("CATALOG_KEY_TAKEN", undefined, {
        metadata: { kind, key: entry.key },
        violations: [{ field: "key", code: "duplicate" }],
      });
    }
    const details: Record<string, unknown> = { kind, key: entry.key, displayName: entry.displayName };
    if (entry.valueType) details.format = entry.valueType;
    await auditStore(q).record({ ...who, action: "catalog_entry.create", target: target(kind, entry.key), details });
    return entry;
  });
}

export async function updateCatalogEntry(
  db: Db,
  kind: CatalogKindName,
  key: string,
  change: { displayName?: string; valueType?: string },
  who: AuditContext,
): Promise<CatalogEntryRow> {
  const v: Violation[] = [];
  displayNameViolations(v, change.displayName);
  if (change.valueType === "") v.push({ field: "format", code: "invalid_value" });
  formatViolations(v, kind, change.valueType);
  if (v.length) throw validationError(v);
  return db.tx(async (q) => {
    const entry = await catalogAdminStore(q).update(kind, key, change);
    if (!entry) throw domainError("CATALOG_ENTRY_NOT_FOUND", undefined, { metadata: { kind, key } });
    const details: Record<string, unknown> = { kind, key };
    if (change.displayName !== undefined) details.displayName = change.displayName;
    if (change.valueType !== undefined) details.format = change.valueType;
    await auditStore(q).record({ ...who, action: "catalog_entry.update", target: target(kind, key), details });
    return entry;
  });
}

/** Removes a key nothing references (409 in_use otherwise), under the catalogs' exclusive lock. */
export async function deleteCatalogEntry(db: Db, kind: CatalogKindName, key: string, who: AuditContext): Promise<void> {
  await db.tx(async (q) => {
    await lockCatalogs(q, "delete");
    if (await catalogKeyInUse(q, kind, key)) {
      throw domainError("IN_USE", "An application, entry point or legal assertion still uses this key.", {
        metadata: { kind, key },
      });
    }
    if (!(await catalogAdminStore(q).remove(kind, key)))
      throw domainError("CATALOG_ENTRY_NOT_FOUND", undefined, { metadata: { kind, key } });
    await auditStore(q).record({
      ...who,
      action: "catalog_entry.delete",
      target: target(kind, key),
      details: { kind, key },
    });
  });
}
