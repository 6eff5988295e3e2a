import { isDeepStrictEqual } from "node:util";
import type { JsonMap, UserRecord } from "../users/record.ts";
import type { UpdatePlan } from "./plan.ts";

/** The names of what a change touches ("ids.email", "datas.name", ...): what user.updated reports, never a value. */
export function changedFields(user: UserRecord, plan: UpdatePlan): string[] {
  const out = plan.ids.map((op) => `ids.${op.key}`);
  const maps = { datas: plan.datas, addresses: plan.addresses, assertions: plan.assertions } as const;
  for (const [name, next] of Object.entries(maps) as [keyof typeof maps, JsonMap | undefined][]) {
    if (!next) continue;
    const before = user[name];
    for (const key of new Set([...Object.keys(before), ...Object.keys(next)]))
      if (!isDeepStrictEqual(before[key], next[key])) out.push(`${name}.${key}`);
  }
  return [...new Set(out)];
}
