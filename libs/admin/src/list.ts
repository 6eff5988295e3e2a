import type { Queryable } from "@gatehouse/db";
import { validationError } from "@gatehouse/errors";
import type { AuditEntry, AuditFilter, AuditPosition } from "@gatehouse/proto";
import { auditLog } from "./log.ts";
import { pageSize } from "./pages.ts";
import { auditFilterOf, auditPositionOf, toAuditEntry } from "./proto.ts";

const MAX_FILTER_LENGTH = 256;

/**
 * One page of a service's audit log for a List…AuditEntries RPC: filters
 * checked, newest first, `more` when entries follow the last one.
 */
export async function listAuditEntries(
  q: Queryable,
  table: string,
  req: { filter?: AuditFilter; after?: AuditPosition; pageSize: number },
): Promise<{ entries: AuditEntry[]; more: boolean }> {
  const size = pageSize(req.pageSize);
  const filter = auditFilterOf(req.filter);
  const long = (["actor", "action", "target"] as const).filter((k) => (filter[k]?.length ?? 0) > MAX_FILTER_LENGTH);
  if (long.length) throw validationError(long.map((field) => ({ field, code: "too_long" })));
  const rows = await auditLog(q, table).list(filter, auditPositionOf(req.after), size + 1);
  return { entries: rows.slice(0, size).map(toAuditEntry), more: rows.length > size };
}
