import passwords from "@zxcvbn-ts/language-common/src/passwords.json" with { type: "json" };

/** How many of the list's most common passwords are refused (contract section 17). */
export const COMMON_COUNT = 10_000;

// zxcvbn-ts' common dictionary (MIT), ordered by frequency in leaked password
// sets: we keep its first 10,000, lower-cased, and compare lower-cased.
let common: ReadonlySet<string> | undefined;

/** True when `password` (already NFKC) is, ignoring case, one of the 10,000 most common passwords. */
export function isCommonPassword(password: string): boolean {
  common ??= new Set((passwords as string[]).slice(0, COMMON_COUNT).map((p) => p.toLowerCase()));
  return common.has(password.toLowerCase());
}
