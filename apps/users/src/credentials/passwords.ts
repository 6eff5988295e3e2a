import { hash, parseOptions, verify as argonVerify, type Options } from "@node-rs/argon2";

/** argon2id parameters (OWASP minimum: m=19 MiB, t=2, p=1). */
export interface HashParams {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export const DEFAULT_HASH_PARAMS: HashParams = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

// `Algorithm` is an ambient const enum, which isolated modules cannot read: 2 is Argon2id.
const ARGON2ID = 2 as NonNullable<Options["algorithm"]>;

export interface Passwords {
  hash(password: string): Promise<string>;
  /** False for a wrong password or an unknown user (hash undefined), in about the same time. */
  verify(phc: string | undefined, password: string): Promise<boolean>;
  /** True when the stored hash was made with other parameters than the current ones. */
  needsRehash(phc: string): boolean;
}

/** Password policy: 8 to 128 characters; the violation code or undefined. */
export function passwordPolicy(password: string): "too_short" | "too_long" | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return "too_short";
  if (length > PASSWORD_MAX) return "too_long";
  return undefined;
}

/**
 * argon2id with PHC strings. @node-rs/argon2 hashes on libuv's thread pool,
 * so the event loop keeps serving while a hash runs.
 */
export function argon2Passwords(params: HashParams = DEFAULT_HASH_PARAMS): Passwords {
  const options: Options = { ...params, algorithm: ARGON2ID };
  // Unknown users are verified against this hash so that they cost the same as a wrong password.
  let dummy: Promise<string> | undefined;
  const dummyHash = () => (dummy ??= hash("gatehouse-dummy-password", options));
  return {
    hash: (password) => hash(password, options),
    async verify(phc, password) {
      if (!phc) {
        await argonVerify(await dummyHash(), password).catch(() => false);
        return false;
      }
      try {
        return await argonVerify(phc, password);
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
