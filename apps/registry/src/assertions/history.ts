import { pageOf, pageSize, readKeyCursor } from "@gatehouse/admin";
import type { Queryable } from "@gatehouse/db";
import { validationError } from "@gatehouse/errors";
import { assertionStore, type AssertionRow } from "./store.ts";

/** One page of legal assertions in key order, each with every version (latest first). */
export async function assertionHistory(
  q: Queryable,
  req: { typology: string; size: number; cursor: string },
): Promise<{ items: { key: string; versions: AssertionRow[] }[]; next: string }> {
  if (req.typology.length > 64) throw validationError([{ field: "typology", code: "too_long" }]);
  const size = pageSize(req.size);
  const keys = await assertionStore(q).keys(req.typology, readKeyCursor(req.cursor), size + 1);
  const page = pageOf(keys, size, (k) => k);
  const versions = await assertionStore(q).versionsOf(page.items);
  return {
    items: page.items.map((key) => ({ key, versions: versions.filter((v) => v.key === key) })),
    next: page.next,
  };
}
