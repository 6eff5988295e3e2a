import { domainError } from "@gatehouse/errors";
import type { Db } from "@gatehouse/db";
import type { Kv } from "@gatehouse/kv";
import type { LoginContext, LoginStep } from "../login/steps.ts";
import { issueMfaToken } from "./login-token.ts";
import { mfaStore } from "./store.ts";

/** An application's MFA policy (registry `mfa` column). */
export type MfaPolicy = "off" | "optional" | "required";

export const MFA_METHODS = ["totp"];

/**
 * The login's MFA step (first of the steps after the password): with TOTP on,
 * or the application's policy `required`, a login that has not passed MFA
 * ends in MFA_REQUIRED (428) carrying a token bound to this attempt. Without
 * a factor (policy `required`) the answer says `enroll`: the token then
 * authorizes EnrollTotp and ConfirmTotp for this user.
 */
export function mfaLoginStep(deps: { db: Db; kv: Kv; policyOf: (ctx: LoginContext) => Promise<MfaPolicy> }): LoginStep {
  return async (ctx) => {
    if (ctx.mfaPassed) return;
    const state = await mfaStore(deps.db).state(ctx.user.id);
    const on = Boolean(state?.enabledAt);
    if (!on && (await deps.policyOf(ctx)) !== "required") return;
    const token = await issueMfaToken(deps.kv, {
      userId: ctx.user.id,
      clientId: ctx.clientId,
      entrypointId: ctx.entrypoint.id,
      sourceId: ctx.caller?.sourceId ?? "",
      fca: ctx.fca ?? false,
      assertions: ctx.assertions,
      enroll: !on,
    });
    throw domainError("MFA_REQUIRED", undefined, {
      metadata: { mfa_token: token, methods: MFA_METHODS.join(","), ...(on ? {} : { enroll: "true" }) },
    });
  };
}
