import type { HashFamily } from "./family.ts";
import { decodeB64, phcParams } from "./encoding.ts";

/** Costs a server accepts from an import: up to 1 GiB of memory, 64 passes, 16 lanes. */
const MAX_MEMORY_KIB = 1024 * 1024;

/** Parameters of an argon2 PHC string, or undefined when it is not one (or costs too much). */
export function readArgon2Phc(text: string): string | undefined {
  const parts = text.split("$");
  if (parts.length !== 6 || parts[0] !== "" || !/^argon2(id|i|d)$/.test(parts[1]!)) return undefined;
  if (parts[2] !== "v=19" && parts[2] !== "v=16") return undefined;
  const p = phcParams(parts[3]!);
  const m = p?.get("m");
  const t = p?.get("t");
  const lanes = p?.get("p");
  if (!p || !m || !t || !lanes || m > MAX_MEMORY_KIB || t > 64 || lanes > 16 || m < 8 * lanes) return undefined;
  const salt = decodeB64(parts[4]!);
  const hash = decodeB64(parts[5]!);
  if (!salt || salt.length < 8 || !hash || hash.length < 16) return undefined;
  return text;
}

/**
 * argon2id, argon2i (and argon2d) as PHC strings. They are read and exported
 * here; credentials/passwords.ts verifies every argon2 string (its verify
 * takes any variant and parameters) and asks for a rehash when they are not
 * Gatehouse's own.
 */
export const argon2Family: Omit<HashFamily, "verify"> = {
  name: "argon2",
  owns: (stored) => stored.startsWith("$argon2"),
  read: (value) => (typeof value === "string" ? readArgon2Phc(value) : undefined),
  exported: (stored) => stored,
};
