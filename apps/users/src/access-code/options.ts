/** Sign-in codes of code sign-in (contract section 8). */
export interface AccessCodeOptions {
  /** Lifetime of a code (10 minutes). */
  ttlSeconds: number;
  /** Guesses a code survives (5). */
  maxAttempts: number;
  /** Codes sent per identifier value in each window, whether or not a user holds the value. */
  sendLimit: number;
  sendWindowSeconds: number;
}

export const DEFAULT_ACCESS_CODE_OPTIONS: AccessCodeOptions = {
  ttlSeconds: 600,
  maxAttempts: 5,
  sendLimit: 5,
  sendWindowSeconds: 900,
};
