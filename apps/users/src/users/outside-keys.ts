import type { Violation } from "@gatehouse/errors";
import type { Entrypoint } from "@gatehouse/proto";
import type { DataFieldCatalog } from "../ports.ts";
import { isIdKey } from "./identifiers.ts";

const DATAS = "object.datas.";

/**
 * The violation of an `ids` or `datas` key that the entry point does not
 * have: `unknown_key` for a key that exists nowhere (an identifier other
 * than the four of the spec), else `not_in_entrypoint`; sortOutsideKeys
 * later tells data keys that are in no catalog either.
 */
export function outsideKey(ep: Entrypoint, member: "ids" | "datas", key: string): Violation {
  const field = `object.${member}.${key}`;
  if (member === "ids" && !isIdKey(key))
    return {
      field,
      code: "unknown_key",
      description: "not an identifier key (email, phone_number, national_id, screen_name)",
    };
  const keys = ep.fields.filter((f) => f.type === (member === "ids" ? "id" : "field")).map((f) => f.key);
  const kind = member === "ids" ? "identifier" : "data";
  return {
    field,
    code: "not_in_entrypoint",
    description: `not one of this entry point's ${kind} fields (${keys.join(", ") || "it has none"})`,
  };
}

/**
 * Data keys outside the entry point that are not in the operator's
 * data-field catalog either become `unknown_key`. The catalog is asked only
 * when there are such keys; when it cannot be read, they stay
 * `not_in_entrypoint` (true either way).
 */
export async function sortOutsideKeys(
  violations: Violation[],
  catalog: DataFieldCatalog | undefined,
): Promise<Violation[]> {
  const outside = violations.filter((v) => v.code === "not_in_entrypoint" && v.field.startsWith(DATAS));
  if (!outside.length || !catalog) return violations;
  const known = await catalog().catch(() => undefined);
  if (!known) return violations;
  return violations.map((v) =>
    outside.includes(v) && !known.has(v.field.slice(DATAS.length))
      ? { field: v.field, code: "unknown_key", description: "not in the operator's data-field catalog" }
      : v,
  );
}
