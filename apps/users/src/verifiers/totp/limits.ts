import { domainError } from "@gatehouse/errors";
import type { Kv } from "@gatehouse/kv";

/** Guesses of a second factor: per MFA token (then it dies) and per user per window. */
export interface MfaLimits {
  perToken: number;
  perUser: number;
  windowSeconds: number;
}

export const DEFAULT_MFA_LIMITS: MfaLimits = { perToken: 5, perUser: 10, windowSeconds: 900 };

const userGuessKey = (userId: string) => `users:mfa:guess:${userId}`;

/**
 * Counts one guess of the user's codes BEFORE it is checked, so that parallel
 * guesses cannot pass the limit; over it is RATE_LIMITED with retry_after.
 */
export async function countUserGuess(deps: { kv: Kv; limits: MfaLimits }, userId: string): Promise<void> {
  const n = await deps.kv.incr(userGuessKey(userId), deps.limits.windowSeconds);
  if (n.count > deps.limits.perUser)
    throw domainError("RATE_LIMITED", undefined, { metadata: { retry_after: String(n.ttlSeconds) } });
}

export const clearUserGuesses = (deps: { kv: Kv }, userId: string) => deps.kv.del(userGuessKey(userId));
