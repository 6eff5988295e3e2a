import { domainError, validationError } from "@gatehouse/errors";
import type { MfaRequired } from "@gatehouse/proto";
import { userStore, type UserRecord } from "../users/store.ts";
import { requireFactor, type FactorDeps } from "../verifiers/totp/factor.ts";
import { mfaRequired } from "./login-step.ts";
import { countTokenGuess, readMfaToken, spendMfaToken, type MfaBinding } from "./login-token.ts";
import { mfaStore } from "../verifiers/totp/store.ts";

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
  deps: FactorDeps,
  req: { mfaToken: string; code: string; clientId: string; entrypointId: string },
): Promise<MfaPassed | { again: MfaRequired }> {
  const current = await readMfaToken(deps.kv, req.mfaToken, { clientId: req.clientId, entrypointId: req.entrypointId });
  if (!current.binding.proven) {
    if (!req.code) throw validationError([{ field: "code", code: "required" }]);
    const state = await mfaStore(deps.db).state(current.binding.userId);
    // Policy `required` and still no factor: enrol first (same token).
    if (!state?.enabledAt) return { again: mfaRequired(req.mfaToken, true) };
    const left = await countTokenGuess(deps.kv, req.mfaToken, deps.limits.perToken);
    await requireFactor(deps, state, req.code, "code", { attempts_left: String(left) });
  }
  const binding = await spendMfaToken(deps.kv, req.mfaToken);
  const user = await userStore(deps.db).byId(binding.userId);
  if (!user) throw domainError("MFA_TOKEN_INVALID");
  return { binding, user };
}
