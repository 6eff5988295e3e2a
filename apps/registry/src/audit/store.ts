import { auditLog, type AuditLog } from "@gatehouse/admin";
import type { Queryable } from "@gatehouse/db";

/** The registry's append-only audit log (migrations 001 and 003). */
export const AUDIT_TABLE = "registry.audit_log";

/** Write with the transaction's Queryable: the record commits or rolls back with the change. */
export function auditStore(q: Queryable): AuditLog {
  return auditLog(q, AUDIT_TABLE);
}

export type { AuditRecord } from "@gatehouse/admin";
