/** The retry schedule of one delivery; tests shorten it (WEBHOOK_RETRY_BASE_MS). */
export interface RetrySchedule {
  /** The wait after the first failed attempt. */
  baseMs: number;
  /** The longest wait between two attempts. */
  capMs: number;
  /** Attempts go on until this long after the first one. */
  giveUpAfterMs: number;
}

const HOUR = 3_600_000;

/**
 * 5 s, then ×4 each time (20 s, 80 s, 5 min, 21 min, 85 min, 5.7 h), then every
 * 6 h, each wait ±20% at random (jitter: endpoints that failed together do not
 * come back together), until 24 h after the first attempt: ~12 attempts.
 */
export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = { baseMs: 5000, capMs: 6 * HOUR, giveUpAfterMs: 24 * HOUR };

/** When to try again after `attempts` failed ones, or null once the delivery has been tried for long enough. */
export function nextAttemptAt(
  attempts: number,
  firstAttemptAt: number,
  now: number,
  s: RetrySchedule = DEFAULT_RETRY_SCHEDULE,
  random = Math.random,
): number | null {
  if (now - firstAttemptAt >= s.giveUpAfterMs) return null;
  const raw = Math.min(s.baseMs * 4 ** Math.max(0, attempts - 1), s.capMs);
  const wait = Math.round(raw * (0.8 + 0.4 * random()));
  // The last try lands at the 24 h mark, not before it.
  return Math.min(now + wait, firstAttemptAt + s.giveUpAfterMs);
}
