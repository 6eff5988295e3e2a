import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { SecretBox } from "@gatehouse/secrets";
import { decodeB64 } from "./encoding.ts";
import type { FirebaseParams, HashFamily } from "./family.ts";

const PREFIX = "$firebase-scrypt$";
const AAD = "firebase-signer-key";
const std = (b: Buffer) => b.toString("base64");

interface Stored extends FirebaseParams {
  salt: string;
  hash: string;
}

/** Project parameters as Firebase's console shows them; undefined when malformed (memCost ≤ 20: 1 GiB at r=8). */
export function readFirebaseParams(v: unknown): FirebaseParams | undefined {
  if (typeof v !== "object" || v === null) return undefined;
  const p = v as Record<string, unknown>;
  const signerKey = typeof p.signerKey === "string" ? decodeB64(p.signerKey) : undefined;
  const separator = typeof p.saltSeparator === "string" ? decodeB64(p.saltSeparator) : undefined;
  const { rounds, memCost } = p;
  if (!signerKey?.length || !separator || !Number.isInteger(rounds) || !Number.isInteger(memCost)) return undefined;
  if ((rounds as number) < 1 || (rounds as number) > 16 || (memCost as number) < 1 || (memCost as number) > 20)
    return undefined;
  return {
    signerKey: std(signerKey),
    saltSeparator: std(separator),
    rounds: rounds as number,
    memCost: memCost as number,
  };
}

// Stored as `$firebase-scrypt$r=8,m=14$<saltSeparator>$<sealed signerKey>$<salt>$<hash>`: standard base64 and
// a SecretBox's `v1.…` form, neither of which holds a `$`.
function parse(stored: string): Stored | undefined {
  const parts = stored.slice(PREFIX.length).split("$");
  const m = /^r=(\d+),m=(\d+)$/.exec(parts[0] ?? "");
  if (!stored.startsWith(PREFIX) || parts.length !== 5 || !m) return undefined;
  const [, saltSeparator, signerKey, salt, hash] = parts as [string, string, string, string, string];
  return { rounds: Number(m[1]), memCost: Number(m[2]), saltSeparator, signerKey, salt, hash };
}

/**
 * Firebase's modified scrypt (`{"algorithm": "firebase-scrypt", "hash",
 * "salt"}`), with the project's parameters from `?firebase=` or, as an
 * export writes them, on the line itself. Verified by firebase-scrypt
 * (node:crypto's scrypt, then AES-256-CTR of the signer key; constant-time
 * compare). The signer key is the project's secret (without it the hashes
 * cannot be checked offline): it is kept sealed by `box` (SECRET_KEY).
 */
export function firebaseFamily(box: SecretBox): HashFamily {
  const open = (s: Stored) => ({ ...s, signerKey: box.open(s.signerKey, AAD) });
  return {
    name: "firebase-scrypt",
    owns: (stored) => stored.startsWith(PREFIX),
    read(value, ctx) {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
      const v = value as JsonObject;
      if (v.algorithm !== "firebase-scrypt" || typeof v.hash !== "string" || typeof v.salt !== "string")
        return undefined;
      const params = "signerKey" in v ? readFirebaseParams(v) : ctx.firebase;
      const salt = decodeB64(v.salt);
      const hash = decodeB64(v.hash);
      if (!params || !salt?.length || !hash?.length) return undefined;
      const { rounds, memCost, saltSeparator, signerKey } = params;
      const sealed = box.seal(signerKey, AAD);
      return `${PREFIX}r=${rounds},m=${memCost}$${saltSeparator}$${sealed}$${std(salt)}$${std(hash)}`;
    },
    async verify(stored, password) {
      const s = parse(stored);
      if (!s) return false;
      const { salt, hash, ...params } = open(s);
      // Loaded at the first imported Firebase user's login (~10 MB of RSS), not in every users process.
      const { FirebaseScrypt } = await import("firebase-scrypt");
      return new FirebaseScrypt(params).verify(password, salt, hash);
    },
    exported(stored): JsonValue {
      const s = parse(stored);
      return s ? { algorithm: "firebase-scrypt", ...open(s) } : null;
    },
  };
}
