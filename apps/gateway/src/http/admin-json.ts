import { toJson } from "@bufbuild/protobuf";
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import {
  AccountStatus,
  EntrypointSchema,
  type ApplicationRecord,
  type AuditEntry,
  type CatalogEntry,
  type Entrypoint,
  type UserAccount,
  type UserImportJob,
} from "@gatehouse/proto";
import { applicationToJson } from "./application-json.ts";
import { userToJson } from "./user-json.ts";

const iso = (t: Timestamp | undefined) => (t ? timestampDate(t).toISOString() : null);

/** An application as operators see it: the 201 of contract section 3 without the password, plus `updated` and its settings. */
export function adminApplicationToJson(r: ApplicationRecord): Record<string, unknown> {
  const app = r.application!;
  return {
    ...applicationToJson(app),
    updated: iso(app.updateTime) ?? new Date(0).toISOString(),
    whitelist: r.settings?.whitelist ?? [],
    defaultCallback: r.settings?.defaultCallback ?? "",
    mfa: r.settings?.mfa ?? "off",
    captcha: r.settings?.captcha || "off",
    smsPerHour: r.settings?.smsPerHour ?? null,
    phonePrefixes: r.settings?.phonePrefixes ?? [],
  };
}

export const entrypointToJson = (ep: Entrypoint) => toJson(EntrypointSchema, ep) as Record<string, unknown>;

/** `{key, displayName}`; data fields add `format`. */
export function catalogItemToJson(e: CatalogEntry): Record<string, unknown> {
  return { key: e.key, displayName: e.displayName, ...(e.valueType ? { format: e.valueType } : {}) };
}

/** `content.user` of contract section 5 plus status, lastLogin, sessions (when counted), mfa and passkeys (count, section 12). */
export function adminUserToJson(a: UserAccount): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ...userToJson(a.user!),
    status: a.status === AccountStatus.LOCKED ? "locked" : "active",
    lastLogin: iso(a.lastLoginTime),
    mfa: a.mfaEnabled,
    passkeys: a.passkeyCount,
  };
  if (a.lockTime) out.locked = iso(a.lockTime);
  if (a.sessionCount !== undefined) out.sessions = a.sessionCount;
  return out;
}

/** An audit entry of one service's log; ids are `<service>-<number>`, unique across the logs. */
export function auditItemToJson(source: string, e: AuditEntry): Record<string, unknown> {
  return {
    id: `${source}-${e.id}`,
    time: iso(e.time) ?? "",
    actor: e.actor,
    action: e.action,
    target: e.target,
    address: e.address,
    details: e.details ?? {},
  };
}

/** `content` of a page: the items, and `next` unless it is the last page. */
export const page = (items: unknown[], next: string) => (next ? { items, next } : { items });

/**
 * An import job (contract section 15): `status`, the counts and, with its
 * results, `failed` (`[{line, code, field}]`) and `skips` (`[{line, code,
 * field, user}]`: the holder of the id value taken).
 */
export function importJobJson(j: UserImportJob, withResults: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: j.id,
    status: j.status,
    entrypoint: j.entrypointId,
    lines: j.lines,
    imported: j.imported,
    skipped: j.skipped,
    failedCount: j.failed,
    created: iso(j.createTime),
    finished: iso(j.finishTime),
  };
  if (!withResults) return out;
  const lineOf = (r: UserImportJob["results"][number]) => ({ line: r.line, code: r.code, field: r.field });
  out.failed = j.results.filter((r) => r.outcome === "failed").map(lineOf);
  out.skips = j.results.filter((r) => r.outcome === "skipped").map((r) => ({ ...lineOf(r), user: r.userId }));
  return out;
}
