import { randomInt } from "node:crypto";

/** RFC 8628 section 6.1: consonants only (no vowels, so no words), easy to read and type with a remote. */
export const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
const LENGTH = 8;

/** 8 characters drawn uniformly (CSPRNG) from the alphabet: about 34.6 bits. */
export function newUserCode(): string {
  let code = "";
  for (let i = 0; i < LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return code;
}

/** As shown to the person: XXXX-XXXX. */
export const formatUserCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

/**
 * What the person typed, as stored: upper case, dashes and spaces dropped;
 * undefined when it cannot be a user code (so it is counted as wrong without a lookup).
 */
export function normalizeUserCode(typed: string): string | undefined {
  const code = typed.toUpperCase().replace(/[\s-]/g, "");
  if (code.length !== LENGTH) return undefined;
  for (const c of code) if (!USER_CODE_ALPHABET.includes(c)) return undefined;
  return code;
}
