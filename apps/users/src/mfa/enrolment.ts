import { domainError, validationError } from "@gatehouse/errors";
import type { UserRecord } from "../users/record.ts";
import type { UserStore } from "../users/store.ts";
import type { PasswordProof } from "../verifiers/password/verifier.ts";
import {
  checkTotp,
  newRecoveryCodes,
  openTotp,
  recoveryMac,
  sealTotp,
  type FactorDeps,
} from "../verifiers/totp/factor.ts";
import { clearUserGuesses, countUserGuess } from "../verifiers/totp/limits.ts";
import type { MfaState } from "../verifiers/totp/store.ts";
import { newTotpSecret, otpauthUrl } from "../verifiers/totp/totp.ts";
import type { TotpProof } from "../verifiers/totp/verifier.ts";
import type { CredentialVerifier } from "../verifiers/verifier.ts";

const conflict = (why: string) => domainError("MFA_STATE_CONFLICT", why);

async function stateOf(deps: FactorDeps, userId: string): Promise<MfaState> {
  const state = await deps.data.totp.state(userId);
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
  if (!(await deps.data.totp.enroll(userId, sealTotp(deps.keys, userId, secret))))
    throw conflict("TOTP is already on; disable it first.");
  return { secret, otpauthUrl: otpauthUrl(secret, state.email ?? userId, issuer) };
}

/** A valid code of the enrolled secret turns TOTP on; returns the recovery codes (only place they are shown). */
export async function confirmTotp(deps: FactorDeps, userId: string, code: string): Promise<string[]> {
  if (!code) throw validationError([{ field: "code", code: "required" }]);
  const state = await stateOf(deps, userId);
  if (state.enabledAt) throw conflict("TOTP is already on.");
  if (!state.totpSealed) throw conflict("Nothing to confirm: enrol first.");
  const sealed = state.totpSealed;
  await countUserGuess(deps, userId);
  if (!(await checkTotp(deps, userId, openTotp(deps.keys, userId, sealed), code.trim()))) {
    throw domainError("MFA_CODE_INVALID", undefined, { violations: [{ field: "code", code: "invalid_value" }] });
  }
  await clearUserGuesses(deps, userId);
  const codes = newRecoveryCodes();
  const macs = codes.map((c) => recoveryMac(deps.keys, userId, c));
  const enabled = await deps.data.tx(async ({ totp, users, events }) => {
    if (!(await totp.enable(userId, sealed, macs))) return false;
    const user = await users.byId(userId);
    if (user) await events.user("user.mfa_enabled", null, user);
    return true;
  });
  if (!enabled) throw conflict("The enrolment changed meanwhile; confirm the newest secret.");
  return codes;
}

export interface DisableDeps {
  data: FactorDeps["data"] & { users: UserStore };
  /** Re-authentication: the current password or a second factor. */
  verifiers: { password: CredentialVerifier<PasswordProof>; totp: CredentialVerifier<TotpProof> };
}

/** Turns TOTP off after re-authentication: the current password (throttled like a login) or a code. */
export async function disableTotp(
  deps: DisableDeps,
  req: { userId: string; password: string; code: string; clientAddress: string },
): Promise<void> {
  if (!req.password && !req.code) throw validationError([{ field: "password", code: "required" }]);
  const user: UserRecord | undefined = await deps.data.users.byId(req.userId);
  if (!user) throw domainError("USER_NOT_FOUND");
  if (!user.mfaEnabled) throw conflict("TOTP is not on.");
  // MFA is always required of operators: with the password alone an attacker could swap in their own authenticator.
  if (user.operator) throw conflict("Operators cannot turn TOTP off.");
  const attempt = { user, clientAddress: req.clientAddress };
  if (req.password) await deps.verifiers.password.verify({ kind: "password", password: req.password }, attempt);
  else await deps.verifiers.totp.verify({ kind: "totp", code: req.code, field: "code" }, attempt);
  await deps.data.tx(({ totp }) => totp.disable(user.id));
}
