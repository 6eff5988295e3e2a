import type { Kv } from "@gatehouse/kv";
import type { Logger } from "@gatehouse/logging";
import type { KeyRing } from "@gatehouse/secrets";
import { confirmationStep } from "../confirmation/login-step.ts";
import type { ResendDeps } from "../confirmation/resend.ts";
import type { LoginStep } from "../flow/steps.ts";
import { mfaStep } from "../mfa/login-step.ts";
import { passkeyOfferStep } from "../passkeys/login-step.ts";
import type { PasskeyDeps } from "../passkeys/relying-party.ts";
import type { AssertionCatalog } from "../ports.ts";
import { termsStep } from "../terms/login-step.ts";
import type { TotpStore } from "../verifiers/totp/store.ts";
import { profileStep } from "./profile-step.ts";

/**
 * The steps after the credentials, in the contract's order (section 5):
 * confirmation (412), MFA (428), terms (451), complete account (206), then
 * (hosted logins only) the offer to create a passkey. Written
 * once: a login runs them all, CompleteMfaLogin resumes at "mfa" (passed by
 * then), ContinueLogin from "confirmation" (MFA skips itself once passed).
 */
export const STEP_ORDER = ["confirmation", "mfa", "terms", "profile", "passkey"] as const;

export type StepName = (typeof STEP_ORDER)[number];
export type Steps = Record<StepName, LoginStep>;

export interface StepDeps {
  kv: Kv;
  keys: KeyRing;
  logger: Logger;
  totp: TotpStore;
  catalog: AssertionCatalog;
  /** The confirmation step resends a code (or an activation link) on its way. */
  resend: ResendDeps;
  /** The passkey offer creates options (passkeys/login-step.ts). */
  passkeys: PasskeyDeps;
}

export function loginSteps(deps: StepDeps): Steps {
  return {
    confirmation: confirmationStep({ ...deps.resend, logger: deps.logger }),
    mfa: mfaStep({ totp: deps.totp, kv: deps.kv }),
    terms: termsStep({ keys: deps.keys, catalog: deps.catalog }),
    profile: profileStep(deps.keys),
    passkey: passkeyOfferStep(deps.passkeys),
  };
}

/** The steps from `first` on, in order. */
export const stepsFrom = (steps: Steps, first: StepName): LoginStep[] =>
  STEP_ORDER.slice(STEP_ORDER.indexOf(first)).map((name) => steps[name]);
