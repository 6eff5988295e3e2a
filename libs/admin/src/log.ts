import type { Queryable } from "@gatehouse/db";

/** One action to record. */
export interface AuditRecord {
  /** Who acted (actorOf): `client:<id>`, `user:<id>` or `service:<name>`. */
  actor: string;
  /** What happened, `<resource>.<verb>`: "application.update", "user.lock". */
  action: string;
  /** What it happened to: a client_id, a user id, a catalog key. */
  target: string;
  /** The client address of the request, or "". */
  address?: string;
  /** Facts of the action; never secrets, hashes or a user's personal data. */
  details?: Record<string, unknown>;
  /** An operator person's email (AuditContext): kept in `details.actorEmail`, beside the actor's id. */
  actorEmail?: string;
}

/** A stored entry. Times are microseconds since the epoch (exact, as PostgreSQL keeps them). */
export interface AuditRow extends Required<Omit<AuditRecord, "actorEmail">> {
  id: bigint;
  timeUs: bigint;
}

export interface AuditFilter {
  actor?: string;
  action?: string;
  target?: string;
  /** Entries at or after this time (µs). */
  sinceUs?: bigint;
}

/** A place in the newest-first order: later entries have an earlier time, or the same time and a smaller id. */
export interface AuditPosition {
  timeUs: bigint;
  id: bigint;
}

// The schema-qualified tables of the services' logs (identifiers cannot be bound as parameters).
const TABLE = /^[a-z_]+\.audit_log$/;

const atUs = (param: string) => `(timestamptz 'epoch' + ${param}::bigint * interval '1 microsecond')`;

/**
 * A service's append-only audit log (`<schema>.audit_log`: id, at, actor,
 * action, target, address, details). Write with the Queryable of the
 * transaction that makes the change, so that the change and its record
 * commit or roll back together. The database refuses UPDATE and DELETE of
 * entries (a trigger of each service's migration).
 */
export function auditLog(q: Queryable, table: string) {
  if (!TABLE.test(table)) throw new Error(`not an audit table: ${table}`);
  return {
    async record(r: AuditRecord): Promise<void> {
      await q.query(
        `INSERT INTO ${table} (actor, action, target, address, details) VALUES ($1, $2, $3, $4, $5::jsonb)`,
        [
          r.actor,
          r.action,
          r.target,
          r.address ?? "",
          JSON.stringify(r.actorEmail ? { ...r.details, actorEmail: r.actorEmail } : (r.details ?? {})),
        ],
      );
    },

    /** Up to `limit` entries after `after` (from the newest without it), newest first. */
    async list(filter: AuditFilter, after: AuditPosition | undefined, limit: number): Promise<AuditRow[]> {
      const { rows } = await q.query<{
        id: string;
        at_us: string;
        actor: string;
        action: string;
        target: string;
        address: string;
        details: Record<string, unknown>;
      }>(
        `SELECT id::text AS id, (extract(epoch FROM at) * 1000000)::bigint::text AS at_us, actor, action, target, address, details
           FROM ${table}
          WHERE ($1::text IS NULL OR actor = $1 OR actor IN ('client:' || $1, 'user:' || $1, 'service:' || $1))
            AND ($2::text IS NULL OR action = $2)
            AND ($3::text IS NULL OR target = $3)
            AND ($4::text IS NULL OR at >= ${atUs("$4")})
            AND ($5::text IS NULL OR (at, id) < (${atUs("$5")}, $6::bigint))
          ORDER BY at DESC, id DESC
          LIMIT $7`,
        [
          filter.actor || null,
          filter.action || null,
          filter.target || null,
          filter.sinceUs === undefined ? null : String(filter.sinceUs),
          after ? String(after.timeUs) : null,
          after ? String(after.id) : "0",
          limit,
        ],
      );
      return rows.map((r) => ({
        id: BigInt(r.id),
        timeUs: BigInt(r.at_us),
        actor: r.actor,
        action: r.action,
        target: r.target,
        address: r.address,
        details: r.details ?? {},
      }));
    },
  };
}

export type AuditLog = ReturnType<typeof auditLog>;
