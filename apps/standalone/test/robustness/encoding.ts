import fc from "fast-check";
import { hostileString } from "./arbitraries.ts";

// URL and form components: percent-encoded text, hostile text, and escapes that decode to nothing valid.

/** Percent-encodes the UTF-8 bytes of `s`; a lone surrogate becomes its (invalid) three-byte form. */
export function pct(s: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    if (pair) {
      bytes.push(...Buffer.from(s.slice(i, i + 2), "utf8"));
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else bytes.push(...Buffer.from(s[i]!, "utf8"));
  }
  return bytes
    .map((b) =>
      /[A-Za-z0-9._~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");
}

/** Percent sequences that decode to nothing valid: NUL, bad UTF-8, an encoded surrogate, an overlong NUL, bad escapes. */
export const RAW_BAD = ["%00", "%FF", "%C3%28", "%ED%A0%80", "%C0%80", "%E2%82", "%zz", "%", "a%00b"];

/** A URL component: mostly `good`, else hostile text (encoded) or raw bad escapes. */
export function component(good: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: good.map(pct) },
    { weight: 2, arbitrary: hostileString.map(pct) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_BAD) },
  );
}
