import type { Queryable } from "@gatehouse/db";
import type { RevocationKindName } from "@gatehouse/rpc";

export interface RevocationRow {
  kind: RevocationKindName;
  id: string;
  value: string;
  /** Seconds since the epoch. */
  until: number;
}

/** auth.revocations: the durable record every mark in the kv is rebuilt from. */
export function revocationStore(db: Queryable) {
  return {
    /** Records a revocation; a second one of the same id keeps the later end (and its value). */
    async put(row: RevocationRow): Promise<void> {
      await db.query(
        `INSERT INTO auth.revocations (kind, id, value, until) VALUES ($1, $2, $3, to_timestamp($4))
         ON CONFLICT (kind, id) DO UPDATE SET
           value = CASE WHEN EXCLUDED.until >= auth.revocations.until THEN EXCLUDED.value ELSE auth.revocations.value END,
           until = GREATEST(auth.revocations.until, EXCLUDED.until)`,
        [row.kind, row.id, row.value, row.until],
      );
    },

    /** Every revocation that still matters; the ones that no longer do are deleted on the way. */
    async live(): Promise<RevocationRow[]> {
      await db.query("DELETE FROM auth.revocations WHERE until <= now()");
      const r = await db.query<{ kind: RevocationKindName; id: string; value: string; until: number }>(
        "SELECT kind, id, value, ceil(extract(epoch FROM until))::bigint AS until FROM auth.revocations WHERE until > now()",
      );
      return r.rows.map((row) => ({ ...row, until: Number(row.until) }));
    },
  };
}
