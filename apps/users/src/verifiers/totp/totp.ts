import { Secret, TOTP } from "otpauth";

/** RFC 6238 defaults every authenticator app understands. */
export const TOTP_PERIOD_SECONDS = 30;
const DIGITS = 6;
/** Codes of the previous and the next time step are accepted too (clock drift). */
const WINDOW = 1;

const totp = (secret: string, label = "user", issuer = "Gatehouse") =>
  new TOTP({
    issuer,
    label,
    algorithm: "SHA1",
    digits: DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });

/** A new 160-bit secret from the CSPRNG, base32 (RFC 4648). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth://totp/ URI for authenticator apps (QR code). */
export function otpauthUrl(secret: string, account: string, issuer = "Gatehouse"): string {
  return totp(secret, account, issuer).toString();
}

/** The current code (tests and tools). */
export function totpCode(secret: string, atMs = Date.now()): string {
  return totp(secret).generate({ timestamp: atMs });
}

/** The time step a code matches (within the window), or undefined. */
export function matchTotp(secret: string, code: string, atMs = Date.now()): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totp(secret).validate({ token: code, timestamp: atMs, window: WINDOW });
  if (delta === null) return undefined;
  return Math.floor(atMs / 1000 / TOTP_PERIOD_SECONDS) + delta;
}
