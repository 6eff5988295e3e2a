import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { openCursor, sealCursor } from "@gatehouse/admin";
import { validationError } from "@gatehouse/errors";
import type { AuditEntry, AuditPosition } from "@gatehouse/proto";

// GET /admin/v1/audit merges the services' logs. One order over all of them:
// time (newest first), then the service's name, then the entry's id (highest
// first); the cursor names the last entry of a page as (time in µs, service,
// id), so each log can be asked exactly for the entries after it.

export interface AuditCursor {
  /** Microseconds since the epoch. */
  timeUs: bigint;
  source: string;
  id: bigint;
}

const MICROS = 1_000_000n;
const MAX_ID = 2n ** 63n - 1n;

const microsOf = (t: Timestamp | undefined) => (t ? t.seconds * MICROS + BigInt(Math.floor(t.nanos / 1000)) : 0n);
const timestampOf = (us: bigint): Timestamp => ({
  $typeName: "google.protobuf.Timestamp",
  seconds: us / MICROS,
  nanos: Number(us % MICROS) * 1000,
});

export function encodeAuditCursor(c: AuditCursor): string {
  return sealCursor({ t: String(c.timeUs), s: c.source, i: String(c.id) });
}

export function decodeAuditCursor(cursor: string, sources: readonly string[]): AuditCursor {
  const c = openCursor(cursor, ["t", "s", "i"]);
  if (sources.includes(c.s) && /^\d{1,19}$/.test(c.t) && /^\d{1,19}$/.test(c.i))
    return { timeUs: BigInt(c.t), source: c.s, id: BigInt(c.i) };
  throw validationError([{ field: "cursor", code: "invalid_value", description: "not a cursor of this list" }]);
}

/**
 * Where log `source` continues after the cursor: at the cursor's time, the
 * logs ordered after the cursor's keep all their entries of that time, those
 * before it none, and the cursor's own log those with a smaller id.
 */
export function positionFor(source: string, c: AuditCursor | undefined): Omit<AuditPosition, "$typeName"> | undefined {
  if (!c) return undefined;
  const id = source === c.source ? c.id : source > c.source ? MAX_ID : 0n;
  return { time: timestampOf(c.timeUs), id };
}

const before = (a: { source: string; entry: AuditEntry }, b: { source: string; entry: AuditEntry }) => {
  const ta = microsOf(a.entry.time);
  const tb = microsOf(b.entry.time);
  if (ta !== tb) return ta > tb ? -1 : 1;
  if (a.source !== b.source) return a.source < b.source ? -1 : 1;
  return a.entry.id > b.entry.id ? -1 : a.entry.id < b.entry.id ? 1 : 0;
};

/** The first `limit` entries of the logs' pages in the one order, and the cursor after them when more follow. */
export function mergeAuditPages(
  pages: { source: string; entries: AuditEntry[]; more: boolean }[],
  limit: number,
): { items: { source: string; entry: AuditEntry }[]; next: string } {
  const all = pages.flatMap((p) => p.entries.map((entry) => ({ source: p.source, entry }))).sort(before);
  const items = all.slice(0, limit);
  const last = items.at(-1);
  const more = all.length > limit || pages.some((p) => p.more);
  return {
    items,
    next:
      more && last
        ? encodeAuditCursor({ timeUs: microsOf(last.entry.time), source: last.source, id: last.entry.id })
        : "",
  };
}
