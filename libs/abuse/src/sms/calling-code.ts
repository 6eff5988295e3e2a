// ITU-T E.164 country calling codes are prefix-free: these are the 1- and
// 2-digit ones; every other assigned code has 3 digits.
const ONE_DIGIT = new Set(["1", "7"]);
const TWO_DIGITS = new Set(
  (
    "20 27 30 31 32 33 34 36 39 40 41 43 44 45 46 47 48 49 51 52 53 54 55 56 57 58 " +
    "60 61 62 63 64 65 66 81 82 84 86 90 91 92 93 94 95 98"
  ).split(" "),
);

/** The calling code of an E.164 number ("+34600111222" → "+34"); undefined when it is not one. */
export function callingCode(e164: string): string | undefined {
  if (!/^\+[1-9]\d{3,14}$/.test(e164)) return undefined;
  const digits = e164.slice(1);
  if (ONE_DIGIT.has(digits[0]!)) return `+${digits[0]}`;
  if (TWO_DIGITS.has(digits.slice(0, 2))) return `+${digits.slice(0, 2)}`;
  return `+${digits.slice(0, 3)}`;
}

/** True when `e164` starts with one of `prefixes` ("+34", or a longer "+1809"); every number when there are none. */
export function allowedByPrefixes(e164: string, prefixes: readonly string[]): boolean {
  return prefixes.length === 0 || prefixes.some((p) => e164.startsWith(p));
}
