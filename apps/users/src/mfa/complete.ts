import { domainError, validationError } from "@gatehouse/errors";
import type { Kv } from "@gatehouse/kv";
import type { MfaRequired } from "@gatehouse/proto";
import type { UserRecord } from "../users/record.ts";
import type { UserStore } from "../users/store.ts";
import type { MfaLimits } from "../verifiers/totp/limits.ts";
import type { TotpProof } from "../verifiers/totp/verifier.ts";
import type { CredentialVerifier } from "../verifiers/verifier.ts";
import { mfaRequired } from "./login-step.ts";
import { countTokenGuess, readMfaToken, spendMfaToken, type MfaBinding } from "./login-token.ts";

export interface MfaCompletionDeps {
  users: UserStore;
  kv: Kv;
  limits: MfaLimits;
  /** The second factor (a passkey would be another). */
  totp: CredentialVerifier<TotpProof>;
}

/** A login's MFA step passed: the attempt the token was bound to, and its user. */
export interface MfaPassed {
  binding: MfaBinding;
  user: UserRecord;
}

/**
 * The second half of the login's MFA step (CompleteMfaLogin): the token of
 * this application and entry point, then its code (each guess counted
 * before it is checked; the token dies after `perToken`), unless an
 * enrolment with this token already proved one. A token whose user must
 * still enrol answers MfaRequired again. The token is spent on success.
 */
export async function passMfaStep(
  deps: MfaCompletionDeps,
  req: { mfaToken: string; code: string; clientId: string; entrypointId: string; clientAddress: string },
): Promise<MfaPassed | { again: MfaRequired }> {
  const current = await readMfaToken(deps.kv, req.mfaToken, { clientId: req.clientId, entrypointId: req.entrypointId });
  let user: UserRecord | undefined;
  if (!current.binding.proven) {
    if (!req.code) throw validationError([{ field: "code", code: "required" }]);
    user = await deps.users.byId(current.binding.userId);
    // Policy `required` and still no factor: enrol first (same token).
    if (!user?.mfaEnabled) return { again: mfaRequired(req.mfaToken, true) };
    const left = await countTokenGuess(deps.kv, req.mfaToken, deps.limits.perToken);
    const proof: TotpProof = { kind: "totp", code: req.code, field: "code", attemptsLeft: left };
    await deps.totp.verify(proof, { user, clientAddress: req.clientAddress });
  }
  const binding = await spendMfaToken(deps.kv, req.mfaToken);
  user ??= await deps.users.byId(binding.userId);
  if (!user) throw domainError("MFA_TOKEN_INVALID");
  return { binding, user };
}
