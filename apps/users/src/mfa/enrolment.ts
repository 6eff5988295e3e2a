import { domainError, validationError } from "@gatehouse/errors";
import type { Passwords } from "../credentials/passwords.ts";
import { countLoginAttempt, clearAccountAttempts, type LoginLimits } from "../verifiers/throttle.ts";
import {
  checkTotp,
  clearUserGuesses,
  countUserGuess,
  newRecoveryCodes,
  openTotp,
  recoveryMac,
  requireFactor,
  sealTotp,
  type FactorDeps,
} from "../verifiers/totp/factor.ts";
import { mfaStore, type MfaState } from "../verifiers/totp/store.ts";
import { newTotpSecret, otpauthUrl } from "../verifiers/totp/totp.ts";

const conflict = (why: string) => domainError("MFA_STATE_CONFLICT", why);

async function stateOf(deps: FactorDeps, userId: string): Promise<MfaState> {
  const state = await mfaStore(deps.db).state(userId);
  if (!state) throw domainError("USER_NOT_FOUND");
  return state;
}

/** A new secret, stored sealed and off until confirmed; a later enrolment replaces an unconfirmed one. */
export async function enrollTotp(
  deps: FactorDeps,
  userId: string,
  issuer: string,
): Promise<{ secret: string; otpauthUrl: string }> {
  const state = await stateOf(deps, userId);
  if (state.enabledAt) throw conflict("TOTP is already on; disable it first.");
  const secret = newTotpSecret();
  if (!(await mfaStore(deps.db).enroll(userId, sealTotp(deps.keys, userId, secret))))
    throw conflict("TOTP is already on; disable it first.");
  return { secret, otpauthUrl: otpauthUrl(secret, state.email ?? userId, issuer) };
}

/** A valid code of the enrolled secret turns TOTP on; returns the recovery codes (only place they are shown). */
export async function confirmTotp(deps: FactorDeps, userId: string, code: string): Promise<string[]> {
  if (!code) throw validationError([{ field: "code", code: "required" }]);
  const state = await stateOf(deps, userId);
  if (state.enabledAt) throw conflict("TOTP is already on.");
  if (!state.totpSealed) throw conflict("Nothing to confirm: enrol first.");
  await countUserGuess(deps, userId);
  if (!(await checkTotp(deps, userId, openTotp(deps.keys, userId, state.totpSealed), code.trim()))) {
    throw domainError("MFA_CODE_INVALID", undefined, { violations: [{ field: "code", code: "invalid_value" }] });
  }
  await clearUserGuesses(deps, userId);
  const codes = newRecoveryCodes();
  const enabled = await mfaStore(deps.db).enable(
    userId,
    state.totpSealed,
    codes.map((c) => recoveryMac(deps.keys, userId, c)),
  );
  if (!enabled) throw conflict("The enrolment changed meanwhile; confirm the newest secret.");
  return codes;
}

export interface DisableDeps extends FactorDeps {
  passwords: Passwords;
  loginLimits: LoginLimits;
}

/** Turns TOTP off after re-authentication: the current password (throttled like a login) or a code. */
export async function disableTotp(
  deps: DisableDeps,
  req: { userId: string; password: string; code: string; clientAddress: string },
): Promise<void> {
  if (!req.password && !req.code) throw validationError([{ field: "password", code: "required" }]);
  const state = await stateOf(deps, req.userId);
  if (!state.enabledAt) throw conflict("TOTP is not on.");
  // MFA is always required of operators: with the password alone an attacker could swap in their own authenticator.
  if (state.operator) throw conflict("Operators cannot turn TOTP off.");
  if (req.password) {
    const account = state.email ?? `id:${state.userId}`;
    await countLoginAttempt(deps.kv, deps.loginLimits, account, req.clientAddress);
    if (!(await deps.passwords.verify(state.passwordHash ?? undefined, req.password)))
      throw domainError("INVALID_CREDENTIALS");
    await clearAccountAttempts(deps.kv, account, req.clientAddress);
  } else {
    await requireFactor(deps, state, req.code, "code");
  }
  await mfaStore(deps.db).disable(state.userId);
}
