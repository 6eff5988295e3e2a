import { domainError } from "@gatehouse/errors";
import { MfaRequiredSchema, type Entrypoint } from "@gatehouse/proto";
import { mfaRequired } from "../mfa/login-step.ts";
import type { UserRecord } from "../users/record.ts";
import type { TotpProof } from "../verifiers/totp/verifier.ts";
import type { CredentialVerifier } from "../verifiers/verifier.ts";
import type { UpdateInput, UpdateMode } from "./parse.ts";
import { planUpdate } from "./plan.ts";

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
  totp: CredentialVerifier<TotpProof>,
  change: { ep: Entrypoint; user: UserRecord; input: UpdateInput; mode: UpdateMode; clientAddress: string },
): Promise<void> {
  const { user, input } = change;
  if (!changesCredentials(change.ep, user, input, change.mode)) return;
  if (!user.mfaEnabled) return;
  if (!input.mfaCode) {
    throw domainError("MFA_REQUIRED", undefined, {
      violations: [{ field: CODE_FIELD, code: "required" }],
      details: [{ desc: MfaRequiredSchema, value: mfaRequired("", false) }],
    });
  }
  await totp.verify(
    { kind: "totp", code: input.mfaCode, field: CODE_FIELD },
    { user, clientAddress: change.clientAddress },
  );
}
