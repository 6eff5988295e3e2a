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

/**
 * True when `password` (already NFKC) is, ignoring case, one of the 10,000
 * most common passwords: the list, or a repeat or run (below).
 */
export function isCommonPassword(password: string): boolean {
  common ??= load();
  const lower = password.toLowerCase();
  return common.has(lower) || isRepeatOrRun([...lower]);
}

// zxcvbn's dictionary leaves repeats and runs to its pattern matchers, so its list lacks
// "00000000", "12121212", "987654321", "abcdefgh"…, which leaked-password lists rank in their top thousands.
const DIGITS = /^[0-9]+$/;
const LETTERS = /^[a-z]+$/;

/** A block repeated to the end ("12341234"), or a run of consecutive digits (wrapping: "0987654321") or letters. */
function isRepeatOrRun(chars: string[]): boolean {
  for (let block = 1; block * 2 <= chars.length; block++)
    if (chars.every((c, i) => c === chars[i % block])) return true;
  const text = chars.join("");
  const digits = DIGITS.test(text);
  if (!digits && !LETTERS.test(text)) return false;
  const step = (i: number) => {
    const d = chars[i + 1]!.charCodeAt(0) - chars[i]!.charCodeAt(0);
    return digits ? (d + 10) % 10 : d;
  };
  const first = step(0);
  const up = 1;
  const down = digits ? 9 : -1;
  return (first === up || first === down) && chars.slice(1, -1).every((_, i) => step(i + 1) === first);
}
