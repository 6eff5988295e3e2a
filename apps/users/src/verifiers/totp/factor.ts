import { randomInt } from "node:crypto";
import type { Kv } from "@gatehouse/kv";
import type { KeyRing } from "@gatehouse/secrets";
import type { Transactional } from "../../transactional.ts";
import type { MfaLimits } from "./limits.ts";
import type { MfaState, TotpStore } from "./store.ts";
import { matchTotp, TOTP_PERIOD_SECONDS } from "./totp.ts";
import type { EventStore } from "../../events/store.ts";
import type { UserStore } from "../../users/store.ts";

/** What TOTP enrolment and verification need. */
export interface FactorDeps {
  data: Transactional<{ totp: TotpStore; users: UserStore; events: EventStore }>;
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

/** A TOTP code of `secret`, each time step usable once per user (no replay). */
export async function checkTotp(deps: { kv: Kv }, userId: string, secret: string, code: string): Promise<boolean> {
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
  state: MfaState | undefined,
  code: string,
): Promise<"totp" | "recovery" | undefined> {
  if (!state?.enabledAt || !state.totpSealed) return undefined;
  if (/^\d{6}$/.test(code.trim())) {
    const ok = await checkTotp(deps, state.userId, openTotp(deps.keys, state.userId, state.totpSealed), code.trim());
    return ok ? "totp" : undefined;
  }
  if (normalizeRecovery(code).length !== 10) return undefined;
  return (await deps.data.totp.spendRecovery(state.userId, recoveryMac(deps.keys, state.userId, code)))
    ? "recovery"
    : undefined;
}
