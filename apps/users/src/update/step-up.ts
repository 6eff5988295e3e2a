import { domainError } from "@gatehouse/errors";
import { MfaRequiredSchema, type Entrypoint } from "@gatehouse/proto";
import type { UpdateInput, UpdateMode } from "./parse.ts";
import { planUpdate } from "./plan.ts";
import type { UserRecord } from "../users/store.ts";
import { requireFactor, type FactorDeps } from "../verifiers/totp/factor.ts";
import { mfaRequired } from "../mfa/login-step.ts";
import { mfaStore } from "../verifiers/totp/store.ts";

const GUARDED_IDS = new Set(["email", "phone_number"]);

/** Whether a replace/patch changes what protects the account: email, phone or password. */
export function changesCredentials(ep: Entrypoint, user: UserRecord, input: UpdateInput, mode: UpdateMode): boolean {
  if (input.newPassword !== undefined) return true;
  return planUpdate(ep, user, input, mode).ids.some((op) => GUARDED_IDS.has(op.key) && op.kind !== "unpend");
}

const CODE_FIELD = "object.mfaCode";

/**
 * Step-up for a replace/patch of a user with TOTP on that changes email,
 * phone or password: a fresh code in `object.mfaCode` (TOTP, each time step
 * once; or a recovery code), else MFA_REQUIRED (428). The update did not
 * happen, so that is an error; it carries the 428's MfaRequired (no token:
 * the code goes with the change itself) for the answer's `content.mfa`.
 */
export async function requireStepUp(
  deps: FactorDeps,
  ep: Entrypoint,
  user: UserRecord,
  input: UpdateInput,
  mode: UpdateMode,
): Promise<void> {
  if (!changesCredentials(ep, user, input, mode)) return;
  const state = await mfaStore(deps.db).state(user.id);
  if (!state?.enabledAt) return;
  if (!input.mfaCode) {
    throw domainError("MFA_REQUIRED", undefined, {
      violations: [{ field: CODE_FIELD, code: "required" }],
      details: [{ desc: MfaRequiredSchema, value: mfaRequired("", false) }],
    });
  }
  await requireFactor(deps, state, input.mfaCode, CODE_FIELD);
}
