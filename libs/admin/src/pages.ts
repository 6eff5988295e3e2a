import { createHash } from "node:crypto";
import { validationError } from "@gatehouse/errors";

// Admin lists are pages (contract section 6): 1-200 items, 50 by default, and
// an opaque cursor that names the last item of the previous page.

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** The page size of a request: 0 means the default; outside 1-200 is a `limit` violation. */
export function pageSize(requested: number): number {
  if (requested === 0) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(requested) || requested < 1)
    throw validationError([{ field: "limit", code: "invalid_value", description: "1-200" }]);
  if (requested > MAX_PAGE_SIZE)
    throw validationError([{ field: "limit", code: "too_many", description: "at most 200" }]);
  return requested;
}

const CURSOR = /^([A-Za-z0-9_-]{2,1000})\.([A-Za-z0-9_-]{12})$/;
const checksum = (body: string) =>
  createHash("sha256").update(`gatehouse-cursor:${body}`).digest("base64url").slice(0, 12);

/**
 * An opaque cursor: the position as base64url JSON and a checksum of it, so
 * that a cursor with a character changed, added or removed is refused rather
 * than read as another position. Not a secret: a cursor only names a place in
 * a list its holder may read anyway.
 */
export function sealCursor(position: Record<string, string>): string {
  const body = Buffer.from(JSON.stringify(position), "utf8").toString("base64url");
  return `${body}.${checksum(body)}`;
}

/** The position a cursor names, with exactly these string members; a `cursor` violation for one we did not make. */
export function openCursor<K extends string>(cursor: string, members: readonly K[]): Record<K, string> {
  const m = CURSOR.exec(cursor);
  if (m && checksum(m[1]!) === m[2]) {
    try {
      const parsed = JSON.parse(Buffer.from(m[1]!, "base64url").toString("utf8")) as Record<string, unknown>;
      const keys = parsed && typeof parsed === "object" && !Array.isArray(parsed) ? Object.keys(parsed) : [];
      if (keys.length === members.length && members.every((k) => typeof parsed[k] === "string"))
        return parsed as Record<K, string>;
    } catch {
      // falls through to the violation
    }
  }
  throw validationError([{ field: "cursor", code: "invalid_value", description: "not a cursor of this list" }]);
}

/** The cursor after the item with this sort key. */
export function keyCursor(key: string): string {
  return sealCursor({ k: key });
}

/** The sort key a cursor names; undefined for none; a `cursor` violation for one we did not make. */
export function readKeyCursor(cursor: string): string | undefined {
  if (!cursor) return undefined;
  const { k } = openCursor(cursor, ["k"]);
  if (k.length <= 512) return k;
  throw validationError([{ field: "cursor", code: "invalid_value", description: "not a cursor of this list" }]);
}

/** One page of `size` items from `rows` fetched with size + 1: the items and the cursor after them (when more follow). */
export function pageOf<T>(rows: T[], size: number, keyOf: (row: T) => string): { items: T[]; next: string } {
  const items = rows.slice(0, size);
  const last = items[items.length - 1];
  return { items, next: rows.length > size && last !== undefined ? keyCursor(keyOf(last)) : "" };
}
