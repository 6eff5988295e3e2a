import { availableParallelism } from "node:os";
import { normalizePassword } from "@gatehouse/abuse";
import { hash, parseOptions, verify as argonVerify, type Options } from "@node-rs/argon2";

/** argon2id parameters (OWASP minimum: m=19 MiB, t=2, p=1). */
export interface HashParams {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export const DEFAULT_HASH_PARAMS: HashParams = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

// `Algorithm` is an ambient const enum, which isolated modules cannot read: 2 is Argon2id.
const ARGON2ID = 2 as NonNullable<Options["algorithm"]>;

export interface Passwords {
  /** Hashes the password's NFKC form (contract section 17: one password in any normalization form). */
  hash(password: string): Promise<string>;
  /**
   * Compares the password as given (the password verifier tries the NFKC form, then the typed one for
   * hashes made before NFKC). False for a wrong password or an unknown user (hash undefined), in about the same time. */
  verify(phc: string | undefined, password: string): Promise<boolean>;
  /** True when the stored hash was made with other parameters than the current ones. */
  needsRehash(phc: string): boolean;
}

/**
 * At most `slots` calls of `fn` run at once; the others wait in order. More
 * argon2 runs than cores only thrash the caches (19 MiB each) and libuv's
 * pool, which DNS and file I/O share.
 */
export function gate(slots: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (running >= slots) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await fn();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/**
 * argon2id with PHC strings. @node-rs/argon2 hashes on libuv's thread pool,
 * so the event loop keeps serving while a hash runs.
 */
export function argon2Passwords(params: HashParams = DEFAULT_HASH_PARAMS, slots = availableParallelism()): Passwords {
  const options: Options = { ...params, algorithm: ARGON2ID };
  const run = gate(Math.max(1, slots));
  // Unknown users are verified against this hash so that they cost the same as a wrong password.
  let dummy: Promise<string> | undefined;
  const dummyHash = () => (dummy ??= hash("gatehouse-dummy-password", options));
  return {
    hash: (password) => run(() => hash(normalizePassword(password), options)),
    async verify(phc, password) {
      if (!phc) {
        const dummyPhc = await dummyHash();
        await run(() => argonVerify(dummyPhc, password)).catch(() => false);
        return false;
      }
      try {
        return await run(() => argonVerify(phc, password));
      } catch {
        return false; // not a PHC string we can read
      }
    },
    needsRehash(phc) {
      try {
        const p = parseOptions(phc);
        return (
          p.algorithm !== ARGON2ID ||
          p.memoryCost !== params.memoryCost ||
          p.timeCost !== params.timeCost ||
          p.parallelism !== params.parallelism
        );
      } catch {
        return true;
      }
    },
  };
}
