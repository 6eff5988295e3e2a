import type { Violation } from "@gatehouse/errors";

export type ViolationCode =
  | "required"
  | "invalid_value"
  | "invalid_format"
  | "unknown_key"
  | "duplicate"
  | "not_allowed"
  | "too_long"
  | "too_few"
  | "too_many"
  | "main_required"
  | "main_rules";

/** Collects every violation of one request; validation never stops at the first. */
export interface Issues {
  readonly list: Violation[];
  add(field: string, code: ViolationCode, description?: string): void;
}

export function newIssues(): Issues {
  const list: Violation[] = [];
  return {
    list,
    add(field, code, description) {
      list.push(description ? { field, code, description } : { field, code });
    },
  };
}

/** `objectType` discriminators: missing is `required`, anything else than `expected` is `invalid_value`. */
export function checkObjectType(issues: Issues, field: string, value: string | undefined, expected: string): void {
  if (!value) issues.add(field, "required", `must be "${expected}"`);
  else if (value !== expected) issues.add(field, "invalid_value", `must be "${expected}"`);
}

/** Required free text: blank is `required`, longer than `max` characters is `too_long`. */
export function checkText(issues: Issues, field: string, value: string | undefined, max: number): void {
  if (!value?.trim()) issues.add(field, "required");
  else if ([...value].length > max) issues.add(field, "too_long", `at most ${max} characters`);
}
