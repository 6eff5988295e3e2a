import { randomInt } from "node:crypto";
import type { Db } from "@gatehouse/db";
import { domainError } from "@gatehouse/errors";
import type { Kv } from "@gatehouse/kv";
import type { KeyRing } from "@gatehouse/secrets";
import { mfaStore, type MfaState } from "./store.ts";
import { matchTotp, TOTP_PERIOD_SECONDS } from "./totp.ts";

/** Guesses of a second factor: per MFA token (then it dies) and per user per window. */
export interface MfaLimits {
  perToken: number;
  perUser: number;
  windowSeconds: number;
}

export const DEFAULT_MFA_LIMITS: MfaLimits = { perToken: 5, perUser: 10, windowSeconds: 900 };

export interface FactorDeps {
  db: Db;
  kv: Kv;
  keys: KeyRing;
  limits: MfaLimits;
}

const TOTP_BOX = "mfa-totp";
const RECOVERY_MAC = "mfa-recovery";
const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
export const RECOVERY_CODES = 10;

/** The secret is sealed with the user id as associated data: a row copied to another user does not open. */
export const sealTotp = (keys: KeyRing, userId: string, secret: string) =>
  keys.box(TOTP_BOX).seal(secret, `totp:${userId}`);
export const openTotp = (keys: KeyRing, userId: string, sealed: string) =>
  keys.box(TOTP_BOX).open(sealed, `totp:${userId}`);

const normalizeRecovery = (code: string) => code.toLowerCase().replace(/[\s-]/g, "");
export const recoveryMac = (keys: KeyRing, userId: string, code: string) =>
  keys.mac(RECOVERY_MAC)(`${userId}:${normalizeRecovery(code)}`);

/** Ten codes of 10 characters (about 49 bits each), shown as `xxxxx-xxxxx`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES }, () => {
    const c = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join("");
    return `${c.slice(0, 5)}-${c.slice(5)}`;
  });
}

const userGuessKey = (userId: string) => `users:mfa:guess:${userId}`;

/**
 * Counts one guess of the user's codes BEFORE it is checked, so that parallel
 * guesses cannot pass the limit; over it is RATE_LIMITED with retry_after.
 */
export async function countUserGuess(deps: FactorDeps, userId: string): Promise<void> {
  const n = await deps.kv.incr(userGuessKey(userId), deps.limits.windowSeconds);
  if (n.count > deps.limits.perUser)
    throw domainError("RATE_LIMITED", undefined, { metadata: { retry_after: String(n.ttlSeconds) } });
}

export const clearUserGuesses = (deps: FactorDeps, userId: string) => deps.kv.del(userGuessKey(userId));

/** A TOTP code of `secret`, each time step usable once per user (no replay). */
export async function checkTotp(deps: FactorDeps, userId: string, secret: string, code: string): Promise<boolean> {
  const step = matchTotp(secret, code);
  if (step === undefined) return false;
  // Remembered past the window in which the step is accepted.
  return deps.kv.setIfAbsent(`users:mfa:step:${userId}:${step}`, "1", TOTP_PERIOD_SECONDS * 4);
}

/**
 * A code of a user whose TOTP is on: a 6-digit TOTP code or a recovery code
 * (spent by this call). The caller has counted the guess.
 */
export async function checkFactor(
  deps: FactorDeps,
  state: MfaState,
  code: string,
): Promise<"totp" | "recovery" | undefined> {
  if (!state.enabledAt || !state.totpSealed) return undefined;
  if (/^\d{6}$/.test(code.trim())) {
    const ok = await checkTotp(deps, state.userId, openTotp(deps.keys, state.userId, state.totpSealed), code.trim());
    return ok ? "totp" : undefined;
  }
  if (normalizeRecovery(code).length !== 10) return undefined;
  return (await mfaStore(deps.db).spendRecovery(state.userId, recoveryMac(deps.keys, state.userId, code)))
    ? "recovery"
    : undefined;
}

/**
 * checkFactor behind the per-user count; a wrong code is MFA_CODE_INVALID
 * with a violation of `field` (where the code travels in the public JSON).
 */
export async function requireFactor(
  deps: FactorDeps,
  state: MfaState,
  code: string,
  field: string,
  metadata: Record<string, string> = {},
): Promise<"totp" | "recovery"> {
  await countUserGuess(deps, state.userId);
  const used = await checkFactor(deps, state, code);
  if (!used)
    throw domainError("MFA_CODE_INVALID", undefined, { metadata, violations: [{ field, code: "invalid_value" }] });
  await clearUserGuesses(deps, state.userId);
  return used;
}
