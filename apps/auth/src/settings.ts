import type { SigningAlg } from "./keys/key-material.ts";

export interface AuthSettings {
  /** iss of every token (the public auth URL). */
  issuer: string;
  /** aud of every access token (the resource server, the public base URL). */
  audience: string;
  accessTokenTtlSeconds: number;
  signingAlg: SigningAlg;
  /** Absolute lifetime of a login session and its refresh family (REFRESH_TOKEN_TTL); default 30 days. */
  refreshTokenTtlSeconds?: number;
  /** A refresh token unused this long expires (the session idles out); default 7 days. */
  refreshIdleTtlSeconds?: number;
  /** Lifetime of an authorization code, 60-600 s; default 60 s. */
  authorizationCodeTtlSeconds?: number;
  /** An active signing key older than this is rotated (SIGNING_KEY_ROTATION_DAYS); 0 = only on demand; default 90 days. */
  signingKeyRotationSeconds?: number;
  /** DEVICE_CODE_TTL: lifetime of a device code (RFC 8628); default 600 s. */
  deviceCodeTtlSeconds?: number;
  /** DEVICE_CODE_FAILURES_PER_ADDRESS: wrong user codes per client address and window; default 20. */
  deviceCodeFailuresPerAddress?: number;
  /** The window of that limit (LOGIN_THROTTLE_WINDOW); default 900 s. */
  deviceCodeFailureWindowSeconds?: number;
}

export const DEFAULT_SIGNING_KEY_ROTATION_SECONDS = 90 * 86_400;

export const DEFAULT_REFRESH_TOKEN_TTL_SECONDS = 30 * 86_400;
export const DEFAULT_REFRESH_IDLE_TTL_SECONDS = 7 * 86_400;

/** The lifetimes of a login session, with the defaults filled in. */
export function sessionLifetimes(settings: AuthSettings) {
  return {
    absoluteSeconds: settings.refreshTokenTtlSeconds ?? DEFAULT_REFRESH_TOKEN_TTL_SECONDS,
    idleSeconds: settings.refreshIdleTtlSeconds ?? DEFAULT_REFRESH_IDLE_TTL_SECONDS,
    accessTokenTtlSeconds: settings.accessTokenTtlSeconds,
  };
}

export type SessionLifetimes = ReturnType<typeof sessionLifetimes>;
