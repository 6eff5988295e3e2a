import { scrypt, timingSafeEqual } from "node:crypto";
import { decodeB64, phcB64, phcParams } from "./encoding.ts";
import type { HashFamily } from "./family.ts";

/** Parameters beyond these would make one login cost more than a server should accept (N=2^20, 1 GiB). */
const MAX_LN = 20;
const MAX_MEMORY = 1024 * 1024 * 1024;

interface ScryptHash {
  ln: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

function parse(text: string): ScryptHash | undefined {
  const parts = text.split("$");
  if (parts.length !== 5 || parts[0] !== "" || parts[1] !== "scrypt") return undefined;
  const params = phcParams(parts[2]!);
  const salt = decodeB64(parts[3]!);
  const hash = decodeB64(parts[4]!);
  const ln = params?.get("ln");
  const r = params?.get("r");
  const p = params?.get("p");
  if (!params || params.size !== 3 || !ln || !r || !p || !salt?.length || !hash || hash.length < 16) return undefined;
  if (ln > MAX_LN || 128 * r * 2 ** ln > MAX_MEMORY || p > 16) return undefined;
  return { ln, r, p, salt, hash };
}

/** Derives `length` bytes with node:crypto (the thread pool), memory allowed for the parameters. */
export function scryptKey(password: string | Buffer, salt: Buffer, length: number, N: number, r: number, p: number) {
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, length, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** scrypt as a PHC string (`$scrypt$ln=15,r=8,p=1$salt$hash`, passlib's form), stored as PHC B64. */
export const scryptFamily: HashFamily = {
  name: "scrypt",
  owns: (stored) => stored.startsWith("$scrypt$"),
  read(value) {
    const h = typeof value === "string" ? parse(value) : undefined;
    return h && `$scrypt$ln=${h.ln},r=${h.r},p=${h.p}$${phcB64(h.salt)}$${phcB64(h.hash)}`;
  },
  async verify(stored, password) {
    const h = parse(stored);
    if (!h) return false;
    const key = await scryptKey(password.normalize("NFC"), h.salt, h.hash.length, 2 ** h.ln, h.r, h.p);
    return timingSafeEqual(key, h.hash);
  },
  exported: (stored) => stored,
};
