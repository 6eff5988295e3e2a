import type { JsonObject } from "@bufbuild/protobuf";
import { assertionValue, isObject, newCtx } from "../users/fields.ts";
import type { Violation } from "@gatehouse/errors";

/**
 * The answers of an `object.assertions` member ({key: {objectType:
 * "assertion", value: true|false}}). null cannot withdraw an answer
 * (not_allowed): it is a record of what the user said.
 */
export function parseAnswers(raw: JsonObject | undefined): { answers: Map<string, boolean>; violations: Violation[] } {
  const ctx = newCtx();
  const answers = new Map<string, boolean>();
  for (const [key, node] of Object.entries(raw ?? {})) {
    if (node === null || (isObject(node) && node.value === null)) {
      ctx.add(`object.assertions.${key}`, "not_allowed");
      continue;
    }
    const before = ctx.violations.length;
    const value = assertionValue(ctx, key, node);
    if (value !== undefined && ctx.violations.length === before) answers.set(key, value);
  }
  return { answers, violations: ctx.violations };
}
