import { createRequire } from "node:module";

/** How many of the list's most common passwords are refused (contract section 17). */
export const COMMON_COUNT = 10_000;

// zxcvbn-ts' common dictionary (MIT), ordered by frequency in leaked password
// sets: we keep its first 10,000, lower-cased, and compare lower-cased. It is
// read at the first check, not when the module loads: the gateway loads this
// library for its captcha only, and the whole list parsed is ~15 MB of RSS.
const require = createRequire(import.meta.url);
const LIST = "@zxcvbn-ts/language-common/src/passwords.json";
let common: ReadonlySet<string> | undefined;

function load(): ReadonlySet<string> {
  const path = require.resolve(LIST);
  const set = new Set((require(path) as string[]).slice(0, COMMON_COUNT).map((p) => p.toLowerCase()));
  // Only the 10,000 kept: the parsed list (its other entries too) leaves the module cache.
  delete require.cache[path];
  return set;
}

/** True when `password` (already NFKC) is, ignoring case, one of the 10,000 most common passwords. */
export function isCommonPassword(password: string): boolean {
  common ??= load();
  return common.has(password.toLowerCase());
}
