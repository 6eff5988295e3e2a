/**
 * Base64 as the exporters write it: standard (`+/`), URL-safe (`-_`) or
 * passlib's adapted form (`./`), padded or not. Node's decoder ignores
 * characters outside the alphabet, so a value is checked against it first.
 */
const ANY_B64 = /^[A-Za-z0-9+/\-_.]*={0,2}$/;

export function decodeB64(text: string): Buffer | undefined {
  if (!ANY_B64.test(text)) return undefined;
  const standard = text.replace(/[-.]/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  if (standard.length % 4 === 1) return undefined;
  return Buffer.from(standard, "base64");
}

/** PHC's B64: standard alphabet, no padding. */
export const phcB64 = (bytes: Buffer): string => bytes.toString("base64").replace(/=+$/, "");

/** The `k=v,k=v` parameters of a PHC string, as numbers; undefined when one is not a whole number. */
export function phcParams(text: string): Map<string, number> | undefined {
  const out = new Map<string, number>();
  for (const part of text.split(",")) {
    const m = /^([a-z]+)=(\d{1,10})$/.exec(part);
    if (!m) return undefined;
    out.set(m[1]!, Number(m[2]));
  }
  return out;
}
