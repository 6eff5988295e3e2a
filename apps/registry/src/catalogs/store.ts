import type { Queryable } from "@gatehouse/db";

/** The operator catalogs applications reference by key. */
export const CATALOG_KINDS = ["organization", "brand", "property", "typology", "data_field"] as const;
export type CatalogKindName = (typeof CATALOG_KINDS)[number];

export interface CatalogEntryRow {
  key: string;
  displayName: string;
  /** The format of a data field's value; null for the other catalogs. */
  valueType: string | null;
}

/** Every catalog's keys (and the identity providers' keys) at one moment, so that validation stays synchronous. */
export type CatalogSnapshot = Record<CatalogKindName, ReadonlySet<string>> & { identityProviders: ReadonlySet<string> };

export interface CatalogStore {
  snapshot(): Promise<CatalogSnapshot>;
  list(kind: CatalogKindName): Promise<CatalogEntryRow[]>;
}

type Row = { key: string; display_name: string; value_type: string | null };
const toEntry = (r: Row): CatalogEntryRow => ({ key: r.key, displayName: r.display_name, valueType: r.value_type });

export function catalogStore(db: Queryable): CatalogStore {
  return {
    async snapshot() {
      const { rows } = await db.query<{ kind: CatalogKindName; key: string }>(
        "SELECT kind, key FROM registry.catalog_entries",
      );
      const sets = Object.fromEntries(CATALOG_KINDS.map((k) => [k, new Set<string>()])) as Record<
        CatalogKindName,
        Set<string>
      >;
      for (const r of rows) sets[r.kind]?.add(r.key);
      const providers = await db.query<{ key: string }>("SELECT key FROM registry.identity_providers");
      return { ...sets, identityProviders: new Set(providers.rows.map((r) => r.key)) };
    },
    async list(kind) {
      const { rows } = await db.query<Row>(
        "SELECT key, display_name, value_type FROM registry.catalog_entries WHERE kind = $1 ORDER BY key",
        [kind],
      );
      return rows.map(toEntry);
    },
  };
}

/** The operators' changes to a catalog (admin API); use a transaction's Queryable. */
export function catalogAdminStore(q: Queryable) {
  return {
    /** Up to `limit` entries after key `after`, in key order. */
    async page(kind: CatalogKindName, after: string | undefined, limit: number): Promise<CatalogEntryRow[]> {
      const { rows } = await q.query<Row>(
        `SELECT key, display_name, value_type FROM registry.catalog_entries
          WHERE kind = $1 AND ($2::text IS NULL OR key > $2) ORDER BY key LIMIT $3`,
        [kind, after ?? null, limit],
      );
      return rows.map(toEntry);
    },
    /** One entry, or undefined when there is no such key. */
    async get(kind: CatalogKindName, key: string): Promise<CatalogEntryRow | undefined> {
      const { rows } = await q.query<Row>(
        "SELECT key, display_name, value_type FROM registry.catalog_entries WHERE kind = $1 AND key = $2",
        [kind, key],
      );
      return rows[0] && toEntry(rows[0]);
    },
    /** False when the key is already in the catalog. */
    async insert(kind: CatalogKindName, e: CatalogEntryRow): Promise<boolean> {
      const { rowCount } = await q.query(
        `INSERT INTO registry.catalog_entries (kind, key, display_name, value_type) VALUES ($1, $2, $3, $4) ON CONFLICT (kind, key) DO NOTHING`,
        [kind, e.key, e.displayName, e.valueType],
      );
      return rowCount > 0;
    },
    /** The entry after the change, or undefined when there is no such key. */
    async update(
      kind: CatalogKindName,
      key: string,
      change: { displayName?: string; valueType?: string },
    ): Promise<CatalogEntryRow | undefined> {
      const { rows } = await q.query<Row>(
        `UPDATE registry.catalog_entries SET display_name = COALESCE($3, display_name), value_type = COALESCE($4, value_type), updated_at = now()
          WHERE kind = $1 AND key = $2 RETURNING key, display_name, value_type`,
        [kind, key, change.displayName ?? null, change.valueType ?? null],
      );
      return rows[0] && toEntry(rows[0]);
    },
    /** False when there is no such key. */
    async remove(kind: CatalogKindName, key: string): Promise<boolean> {
      const { rowCount } = await q.query("DELETE FROM registry.catalog_entries WHERE kind = $1 AND key = $2", [
        kind,
        key,
      ]);
      return rowCount > 0;
    },
  };
}
