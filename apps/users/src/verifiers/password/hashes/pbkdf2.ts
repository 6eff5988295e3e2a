import { pbkdf2, timingSafeEqual } from "node:crypto";
import { decodeB64, phcB64 } from "./encoding.ts";
import type { HashFamily } from "./family.ts";

const DIGESTS = { sha1: "sha1", sha256: "sha256", sha512: "sha512" } as const;
type Digest = keyof typeof DIGESTS;
/** More rounds than this would let one login hold a core for seconds. */
const MAX_ROUNDS = 10_000_000;

export interface Pbkdf2Hash {
  digest: Digest;
  rounds: number;
  salt: Buffer;
  hash: Buffer;
}

/** `$pbkdf2-sha256$i=N$salt$hash` (PHC) or `$pbkdf2-sha256$N$salt$hash` (passlib), any base64 of encoding.ts. */
function parse(text: string): Pbkdf2Hash | undefined {
  const parts = text.split("$");
  const m = /^pbkdf2-(sha1|sha256|sha512)$/.exec(parts[1] ?? "");
  const r = /^(?:i=)?(\d{1,8})$/.exec(parts[2] ?? "");
  if (parts.length !== 5 || parts[0] !== "" || !m || !r) return undefined;
  const rounds = Number(r[1]);
  const salt = decodeB64(parts[3]!);
  const hash = decodeB64(parts[4]!);
  if (rounds < 1 || rounds > MAX_ROUNDS || !salt?.length || !hash || hash.length < 16) return undefined;
  return { digest: m[1] as Digest, rounds, salt, hash };
}

/** The stored (PHC) form of a PBKDF2 hash, also what Keycloak's credentials become. */
export const pbkdf2Phc = (h: Pbkdf2Hash) => `$pbkdf2-${h.digest}$i=${h.rounds}$${phcB64(h.salt)}$${phcB64(h.hash)}`;

export const pbkdf2Family: HashFamily = {
  name: "pbkdf2",
  owns: (stored) => stored.startsWith("$pbkdf2-"),
  read(value) {
    const h = typeof value === "string" ? parse(value) : undefined;
    return h && pbkdf2Phc(h);
  },
  async verify(stored, password) {
    const h = parse(stored);
    if (!h) return false;
    const key = await new Promise<Buffer>((resolve, reject) =>
      pbkdf2(password, h.salt, h.rounds, h.hash.length, DIGESTS[h.digest], (err, k) =>
        err ? reject(err) : resolve(k),
      ),
    );
    return timingSafeEqual(key, h.hash);
  },
  exported: (stored) => stored,
};

export function isPbkdf2Digest(d: string): d is Digest {
  return d in DIGESTS;
}
