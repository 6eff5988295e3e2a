import type { Queryable } from "@gatehouse/db";

/** One published version of a legal assertion, as stored. */
export interface AssertionRow {
  key: string;
  version: string;
  displayName: Record<string, string>;
  type: string;
  typology: string;
  property: string;
  mandatory: boolean;
  publishedAt: Date;
}

export type NewAssertion = Omit<AssertionRow, "publishedAt"> & { publishedBy: string };

interface AssertionSqlRow {
  key: string;
  version: string;
  display_name: Record<string, string>;
  type: string;
  typology: string;
  property: string;
  mandatory: boolean;
  created_at: Date;
}

export const ASSERTION_VERSION_UNIQUE = "legal_assertions_key_version_unique";

const COLUMNS = "key, version, display_name, type, typology, property, mandatory, created_at";

const fromSql = (r: AssertionSqlRow): AssertionRow => ({
  key: r.key,
  version: r.version,
  displayName: r.display_name,
  type: r.type,
  typology: r.typology,
  property: r.property,
  mandatory: r.mandatory,
  publishedAt: new Date(r.created_at),
});

/** True for a unique violation of (key, version): pg and PGlite both carry SQLSTATE 23505. */
export function isVersionTaken(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string } | null;
  return e?.code === "23505" && (e.constraint === undefined || e.constraint === ASSERTION_VERSION_UNIQUE);
}

/** The legal-assertion catalog: rows are only inserted; the highest id of a key is its latest version. */
export function assertionStore(q: Queryable) {
  return {
    /** Throws a unique violation (isVersionTaken) when the key already has that version. */
    async insert(a: NewAssertion): Promise<AssertionRow> {
      const { rows } = await q.query<AssertionSqlRow>(
        `INSERT INTO registry.legal_assertions (key, version, display_name, type, typology, property, mandatory, published_by)
         VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
        [a.key, a.version, JSON.stringify(a.displayName), a.type, a.typology, a.property, a.mandatory, a.publishedBy],
      );
      return fromSql(rows[0]!);
    },

    /** The latest version of each key, in key order; with typologies, only those whose latest version has one of them. */
    async latest(typologies: readonly string[] = []): Promise<AssertionRow[]> {
      const { rows } = await q.query<AssertionSqlRow>(
        `SELECT * FROM (SELECT DISTINCT ON (key) ${COLUMNS} FROM registry.legal_assertions ORDER BY key, id DESC) latest
          WHERE cardinality($1::text[]) = 0 OR typology = ANY($1::text[])
          ORDER BY key`,
        [typologies],
      );
      return rows.map(fromSql);
    },

    /** Up to `limit` keys after `after`, in key order; with a typology, the keys whose latest version has it. */
    async keys(typology: string, after: string | undefined, limit: number): Promise<string[]> {
      const { rows } = await q.query<{ key: string }>(
        `SELECT key FROM (SELECT DISTINCT ON (key) key, typology FROM registry.legal_assertions ORDER BY key, id DESC) latest
          WHERE ($1::text = '' OR typology = $1) AND ($2::text IS NULL OR key > $2)
          ORDER BY key LIMIT $3`,
        [typology, after ?? null, limit],
      );
      return rows.map((r) => r.key);
    },

    /** Every version of the given keys, by key, latest first. */
    async versionsOf(keys: readonly string[]): Promise<AssertionRow[]> {
      if (!keys.length) return [];
      const { rows } = await q.query<AssertionSqlRow>(
        `SELECT ${COLUMNS} FROM registry.legal_assertions WHERE key = ANY($1::text[]) ORDER BY key, id DESC`,
        [keys],
      );
      return rows.map(fromSql);
    },

    /** Every version of a key, latest first. */
    async versions(key: string): Promise<AssertionRow[]> {
      const { rows } = await q.query<AssertionSqlRow>(
        `SELECT ${COLUMNS} FROM registry.legal_assertions WHERE key = $1 ORDER BY id DESC`,
        [key],
      );
      return rows.map(fromSql);
    },
  };
}

export type AssertionStore = ReturnType<typeof assertionStore>;
