import type { Queryable } from "@gatehouse/db";

/** The operator catalogs applications reference by key. */
export const CATALOG_KINDS = ["organization", "brand", "property", "typology", "data_field"] as const;
export type CatalogKindName = (typeof CATALOG_KINDS)[number];

export interface CatalogEntryRow {
  key: string;
  displayName: string;
  valueType: string | null;
}

/** Every catalog's keys at one moment, so that validation stays synchronous. */
export type CatalogSnapshot = Record<CatalogKindName, ReadonlySet<string>>;

export interface CatalogStore {
  snapshot(): Promise<CatalogSnapshot>;
  list(kind: CatalogKindName): Promise<CatalogEntryRow[]>;
}

export function catalogStore(db: Queryable): CatalogStore {
  return {
    async snapshot() {
      const { rows } = await db.query<{ kind: CatalogKindName; key: string }>("SELECT kind, key FROM registry.catalog_entries");
      const sets = Object.fromEntries(CATALOG_KINDS.map((k) => [k, new Set<string>()])) as Record<CatalogKindName, Set<string>>;
      for (const r of rows) sets[r.kind]?.add(r.key);
      return sets;
    },
    async list(kind) {
      const { rows } = await db.query<{ key: string; display_name: string; value_type: string | null }>(
        "SELECT key, display_name, value_type FROM registry.catalog_entries WHERE kind = $1 ORDER BY key",
        [kind],
      );
      return rows.map((r) => ({ key: r.key, displayName: r.display_name, valueType: r.value_type }));
    },
  };
}
