/** Lifetimes, tries and resend limit of confirmation codes (contract section 5 defaults). */
export interface ConfirmationOptions {
  emailTtlSeconds: number;
  smsTtlSeconds: number;
  maxAttempts: number;
  /** Resends allowed per user and identifier key in each window (login 412 and the resend link share it). */
  resendLimit: number;
  resendWindowSeconds: number;
  /** Lifetime of the resend token in the 412 `content.url`. */
  resendTokenTtlSeconds: number;
}

export const DEFAULT_CONFIRMATION_OPTIONS: ConfirmationOptions = {
  emailTtlSeconds: 3600,
  smsTtlSeconds: 600,
  maxAttempts: 5,
  resendLimit: 3,
  resendWindowSeconds: 3600,
  resendTokenTtlSeconds: 3600,
};

/** MAC label of codes and link tokens: they are stored only as HMAC-SHA256 under this key. */
export const CONFIRMATION_MAC = "confirmation";
