import type { AuditContext, AuditLog } from "@gatehouse/admin";
import type { Queryable } from "@gatehouse/db";
import { validationError } from "@gatehouse/errors";
import type { KeyRing } from "@gatehouse/secrets";
import type { Transactional } from "../transactional.ts";
import type { StoredAddress, StoredAssertion } from "../users/model.ts";
import type { UserRecord } from "../users/record.ts";
import { toRecord, USER_SELECT, type UserSqlRow } from "../users/user-row.ts";
import type { ForeignHashes } from "../verifiers/password/hashes/index.ts";

const BOX = "user-export";
const MAX_PAGE = 1000;

/** Live users (not erased), operators aside (console accounts, not an application's users), in object_id order. */
export function exportReads(q: Queryable) {
  return {
    async page(after: string, limit: number): Promise<UserRecord[]> {
      const { rows } = await q.query<UserSqlRow>(
        `SELECT ${USER_SELECT} FROM users.users u
          WHERE u.deleted_at IS NULL AND u.role = 'user' AND u.id > $1 ORDER BY u.id LIMIT $2`,
        [after, limit],
      );
      return rows.map((r) => toRecord(r)!);
    },
  };
}

export type ExportReads = ReturnType<typeof exportReads>;

const entries = <T, U>(o: Record<string, unknown>, fn: (v: T) => U) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, fn(v as T)]));

/** A user as an import line (bulk/line.ts reads it back): the active id values, confirmed ones named; with `hashes`, the hash. */
export function exportLine(u: UserRecord, hashes: ForeignHashes | undefined): string {
  const ids = Object.fromEntries(u.identifiers.map((i) => [i.key, { objectType: "user_id", value: i.value }]));
  const line: Record<string, unknown> = {
    ids,
    datas: entries(u.datas, (value) => ({ objectType: "data", value })),
    addresses: entries(u.addresses, (a: StoredAddress) => ({ objectType: "address", ...a })),
    assertions: entries(u.assertions, (a: StoredAssertion) => ({ objectType: "assertion", value: a.value })),
    confirmed: u.identifiers.filter((i) => i.confirmed).map((i) => i.key),
    created: u.createdAt.toISOString(),
  };
  if (hashes && u.passwordHash) line.password = hashes.exported(u.passwordHash);
  return JSON.stringify(line);
}

export interface ExportDeps {
  data: Transactional<{ exports: ExportReads; audit: AuditLog }>;
  keys: KeyRing;
  hashes: ForeignHashes;
}

interface Cursor {
  after: string;
  hashes: boolean;
}

/**
 * One page of the export. The first page audits it (`users.export`, with or
 * without hashes); the next ones need the sealed token of the page before,
 * which carries the choice of hashes: no page is read around the audit.
 */
export async function exportPage(
  deps: ExportDeps,
  req: { includeHashes: boolean; pageToken: string; pageSize: number },
  who: AuditContext,
): Promise<{ lines: string[]; next: string }> {
  const box = deps.keys.box(BOX);
  const size = req.pageSize ? Math.min(Math.max(req.pageSize, 1), MAX_PAGE) : 500;
  let cursor: Cursor;
  if (req.pageToken) {
    try {
      cursor = JSON.parse(box.open(req.pageToken, who.actor)) as Cursor;
    } catch {
      throw validationError([{ field: "cursor", code: "invalid_value" }]);
    }
  } else {
    cursor = { after: "", hashes: req.includeHashes };
    await deps.data.audit.record({
      ...who,
      action: "users.export",
      target: "users",
      details: { hashes: cursor.hashes },
    });
  }
  const users = await deps.data.exports.page(cursor.after, size);
  const lines = users.map((u) => exportLine(u, cursor.hashes ? deps.hashes : undefined));
  const last = users.at(-1);
  const next =
    users.length === size && last ? box.seal(JSON.stringify({ after: last.id, hashes: cursor.hashes }), who.actor) : "";
  return { lines, next };
}
