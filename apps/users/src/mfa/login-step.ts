import { create } from "@bufbuild/protobuf";
import type { Kv } from "@gatehouse/kv";
import { MfaRequiredSchema, type MfaRequired } from "@gatehouse/proto";
import type { LoginStep } from "../flow/steps.ts";
import { issueMfaToken } from "./login-token.ts";
import type { TotpStore } from "../verifiers/totp/store.ts";

/** An application's MFA policy (registry `mfa` column). */
export type MfaPolicy = "off" | "optional" | "required";

export const MFA_METHODS = ["totp"];

export const policyOf = (mfa: string | undefined): MfaPolicy =>
  mfa === "optional" || mfa === "required" ? mfa : "off";

/** The 428 answer: the token of this login attempt (none on a step-up) and whether the user must enrol first. */
export const mfaRequired = (mfaToken: string, enroll: boolean): MfaRequired =>
  create(MfaRequiredSchema, { mfaToken, methods: MFA_METHODS, enroll });

/**
 * The login's MFA step (after the confirmation, before terms): with TOTP on,
 * or the application's policy `required`, the login ends in MfaRequired
 * (428) with a token bound to this attempt. Without a factor (policy
 * `required`) it says `enroll`: the token then authorizes EnrollTotp and
 * ConfirmTotp for this user. An operator person is always `required`,
 * whatever the application says. CompleteMfaLogin resumes after this step.
 */
export function mfaStep(deps: { totp: TotpStore; kv: Kv }): LoginStep {
  return async (ctx) => {
    // Proven in this flow already (a continued hosted flow, a passkey).
    if (ctx.mfaPassed) return undefined;
    const optional = !ctx.user.operator && policyOf(ctx.resolved.mfa) !== "required";
    // TOTP off as read with the user at the start of this login: no read of its own.
    if (optional && ctx.user.mfaEnabled === false) return undefined;
    const state = await deps.totp.state(ctx.user.id);
    const on = Boolean(state?.enabledAt);
    if (!on && optional) return undefined;
    const token = await issueMfaToken(deps.kv, {
      userId: ctx.user.id,
      clientId: ctx.resolved.clientId,
      entrypointId: ctx.resolved.entrypoint.id,
      sourceId: ctx.caller?.sourceId ?? "",
      fca: ctx.fca,
      enroll: !on,
    });
    return { case: "mfaRequired", value: mfaRequired(token, !on) };
  };
}
