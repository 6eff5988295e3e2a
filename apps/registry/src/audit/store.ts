import type { Queryable } from "@gatehouse/db";

export interface AuditRecord {
  /** Who acted: the principal's subject. */
  actor: string;
  /** What happened, e.g. "client_secret.reveal". */
  action: string;
  /** What it happened to, e.g. a client_id. */
  target: string;
  reason: string;
  metadata?: Record<string, string>;
}

export interface AuditStore {
  record(r: AuditRecord): Promise<void>;
}

export function auditStore(q: Queryable): AuditStore {
  return {
    async record(r) {
      await q.query(
        "INSERT INTO registry.audit_log (actor, action, target, reason, metadata) VALUES ($1, $2, $3, $4, $5::jsonb)",
        [r.actor, r.action, r.target, r.reason, JSON.stringify(r.metadata ?? {})],
      );
    },
  };
}
