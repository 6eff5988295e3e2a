import { validationError } from "@gatehouse/errors";

// Admin lists are pages (contract section 6): 1-200 items, 50 by default, and
// an opaque cursor that names the last item of the previous page.

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** The page size of a request: 0 means the default; outside 1-200 is a `limit` violation. */
export function pageSize(requested: number): number {
  if (requested === 0) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(requested) || requested < 1) throw validationError([{ field: "limit", code: "invalid_value", description: "1-200" }]);
  if (requested > MAX_PAGE_SIZE) throw validationError([{ field: "limit", code: "too_many", description: "at most 200" }]);
  return requested;
}

/** The cursor after the item with this sort key. */
export function keyCursor(key: string): string {
  return Buffer.from(JSON.stringify({ k: key }), "utf8").toString("base64url");
}

/** The sort key a cursor names; undefined for none; a `cursor` violation for one we did not make. */
export function readKeyCursor(cursor: string): string | undefined {
  if (!cursor) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { k?: unknown };
    if (typeof parsed.k === "string" && parsed.k.length <= 512) return parsed.k;
  } catch {
    // falls through to the violation
  }
  throw validationError([{ field: "cursor", code: "invalid_value", description: "not a cursor of this list" }]);
}

/** One page of `size` items from `rows` fetched with size + 1: the items and the cursor after them (when more follow). */
export function pageOf<T>(rows: T[], size: number, keyOf: (row: T) => string): { items: T[]; next: string } {
  const items = rows.slice(0, size);
  const last = items[items.length - 1];
  return { items, next: rows.length > size && last !== undefined ? keyCursor(keyOf(last)) : "" };
}
