import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createSecretKey,
  hkdfSync,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from "node:crypto";
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** A random secret of `bytes` bytes (default 32 = 256 bits) from the CSPRNG, base64url. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

// Node's randomUUID keeps a pool of CSPRNG bytes for speed; this does the same for ids on hot paths.
let pool = Buffer.alloc(0);
let poolOffset = 0;

/** Like randomSecret, from a pooled CSPRNG buffer: for token ids issued many times a second. */
export function pooledRandomSecret(bytes = 16): string {
  if (poolOffset + bytes > pool.length) {
    pool = randomBytes(Math.max(4096, bytes));
    poolOffset = 0;
  }
  const out = pool.subarray(poolOffset, poolOffset + bytes).toString("base64url");
  poolOffset += bytes;
  return out;
}

/** A random decimal string of `digits` digits (no leading zero), from the CSPRNG. */
export function randomDigits(digits: number): string {
  let out = String(randomInt(1, 10));
  while (out.length < digits) out += String(randomInt(0, 10));
  return out;
}

/** Compares two strings in time that depends only on their digests' length. */
export function constantTimeEqual(a: string, b: string): boolean {
  const da = createHash("sha256").update(a).digest();
  const db = createHash("sha256").update(b).digest();
  return timingSafeEqual(da, db);
}

export function sha256Base64url(data: string): string {
  return createHash("sha256").update(data).digest("base64url");
}

/**
 * The master key (SECRET_KEY) and keys derived from it for one purpose each,
 * so that no two features ever share key material.
 */
export class KeyRing {
  readonly #master: Buffer;
  constructor(master: Buffer) {
    if (master.length < 32) throw new Error("SECRET_KEY must carry at least 256 bits");
    this.#master = master;
  }
  derive(label: string, length = 32): Buffer {
    return Buffer.from(hkdfSync("sha256", this.#master, Buffer.alloc(0), `gatehouse:${label}`, length));
  }
  /** Authenticated encryption (AES-256-GCM) with a key for `label`. */
  box(label: string): SecretBox {
    return new SecretBox(this.derive(`box:${label}`));
  }
  /** Keyed MAC (HMAC-SHA256) for `label`, for verifiers that must not cost a password hash. */
  mac(label: string): (data: string) => string {
    // A KeyObject made once: HMAC with a raw Buffer key prepares the key on every call (~5x the cost of the HMAC itself).
    const key = createSecretKey(this.derive(`mac:${label}`));
    return (data) => createHmac("sha256", key).update(data).digest("base64url");
  }
}

/** Parses SECRET_KEY: base64url/base64 or hex of 32+ bytes. */
export function parseSecretKey(raw: string): Buffer {
  const trimmed = raw.trim();
  const buf = /^[0-9a-fA-F]{64,}$/.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64url");
  if (buf.length < 32) throw new Error("SECRET_KEY must be 32 or more bytes, base64url or hex encoded");
  return buf;
}

/**
 * SECRET_KEY from the environment, else the key in DATA_DIR/secret.key,
 * created (mode 0600) on first use. The key is written whole to a temporary
 * file and then hard-linked into place: link() fails when the name exists, so
 * of concurrent first starts exactly one key wins, and no process can read
 * the file before its content is there.
 */
export async function loadKeyRing(secretKey: string | undefined, dataDir: string): Promise<KeyRing> {
  if (secretKey) return new KeyRing(parseSecretKey(secretKey));
  const file = join(dataDir, "secret.key");
  await mkdir(dataDir, { recursive: true });
  const tmp = `${file}.${process.pid}.${randomSecret(6)}.tmp`;
  await writeFile(tmp, randomSecret(32) + "\n", { flag: "wx", mode: 0o600 });
  try {
    await link(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  } finally {
    await unlink(tmp);
  }
  return new KeyRing(parseSecretKey(await readFile(file, "utf8")));
}

/** AES-256-GCM; sealed form `v1.<iv>.<ciphertext>.<tag>` (base64url parts). */
export class SecretBox {
  readonly #key: Buffer;
  constructor(key: Buffer) {
    this.#key = key;
  }
  seal(plaintext: string, associatedData = ""): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv);
    cipher.setAAD(Buffer.from(associatedData));
    const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return ["v1", iv.toString("base64url"), ct.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(
      ".",
    );
  }
  open(sealed: string, associatedData = ""): string {
    const [v, iv, ct, tag] = sealed.split(".");
    if (v !== "v1" || !iv || ct === undefined || !tag) throw new Error("not a sealed value");
    const authTag = Buffer.from(tag, "base64url");
    // A shortened tag would weaken the forgery bound: only the full 16 bytes are accepted.
    if (authTag.length !== 16) throw new Error("not a sealed value");
    const decipher = createDecipheriv("aes-256-gcm", this.#key, Buffer.from(iv, "base64url"), { authTagLength: 16 });
    decipher.setAAD(Buffer.from(associatedData));
    decipher.setAuthTag(authTag);
    return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString("utf8");
  }
}
export * from "./jws.ts";
export * from "./jwt-verify.ts";
export * from "./signature-memo.ts";
