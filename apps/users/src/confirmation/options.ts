/** Lifetimes and tries of confirmation codes (contract section 5 defaults). */
export interface ConfirmationOptions {
  emailTtlSeconds: number;
  smsTtlSeconds: number;
  maxAttempts: number;
}

export const DEFAULT_CONFIRMATION_OPTIONS: ConfirmationOptions = {
  emailTtlSeconds: 3600,
  smsTtlSeconds: 600,
  maxAttempts: 5,
};

/** MAC label of codes and link tokens: they are stored only as HMAC-SHA256 under this key. */
export const CONFIRMATION_MAC = "confirmation";
