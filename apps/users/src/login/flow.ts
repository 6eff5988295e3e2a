import { create, type JsonObject } from "@bufbuild/protobuf";
import { LoginOutcomeSchema, type AuthorizationRequest, type Caller, type LoginOutcome } from "@gatehouse/proto";
import { confirmationStep } from "../confirmation/login-step.ts";
import { DEFAULT_CONFIRMATION_OPTIONS } from "../confirmation/options.ts";
import { argon2Passwords } from "../credentials/passwords.ts";
import type { UsersDeps } from "../deps.ts";
import { passMfaStep } from "../mfa/complete.ts";
import { DEFAULT_MFA_LIMITS } from "../mfa/factor.ts";
import { mfaStep } from "../mfa/login-step.ts";
import { noAssertions } from "../terms/catalog.ts";
import { termsStep } from "../terms/login-step.ts";
import { createTerms } from "../terms/terms.ts";
import { checkAccountStatus } from "./account-status.ts";
import { checkCredentials } from "./credentials.ts";
import { entrypointOf } from "./entrypoint.ts";
import { checkAuthorizationRequest, grantOf, profileIncomplete } from "./grant.ts";
import { missingMandatoryFields } from "./profile.ts";
import type { LoginContext, LoginOutcomeCase, LoginStep } from "./steps.ts";
import { DEFAULT_LOGIN_LIMITS } from "./throttle.ts";

/** LoginUser's request, as the flow needs it. */
export interface LoginRequest {
  caller: Caller | undefined;
  email: string;
  password: string;
  fca: boolean;
  /** `object.assertions`: answers recorded once the password is right. */
  assertions: JsonObject | undefined;
  /** The hosted login's authorization request: a finished login is then a code. */
  authorization: AuthorizationRequest | undefined;
}

/** CompleteMfaLogin's request: the 428's token and its code. */
export interface MfaCompletion {
  caller: Caller | undefined;
  mfaToken: string;
  code: string;
  fca: boolean;
  authorization: AuthorizationRequest | undefined;
}

const outcome = (c: LoginOutcomeCase): LoginOutcome => create(LoginOutcomeSchema, { outcome: c });

/**
 * The login, in one place and in the contract's order (section 5):
 *
 *   entry point (403, ./entrypoint.ts) → `object.assertions` (400) and the
 *   authorization request (400) → credentials and throttles (403, 429,
 *   ./credentials.ts) → account status (403, ./account-status.ts) → answers recorded → confirmation
 *   (412, confirmation/login-step.ts) → MFA (428, mfa/login-step.ts) →
 *   terms (451, terms/login-step.ts) → grant (session or code, ./grant.ts)
 *   → complete account (206 with fca, ./profile.ts).
 *
 * Errors are errors; every other end is a LoginOutcome case. LoginUser runs
 * it all; CompleteMfaLogin finishes the MFA step by its token and resumes
 * after it.
 */
export function createLoginFlow(deps: UsersDeps) {
  const catalog = deps.assertions ?? noAssertions;
  const terms = createTerms({ db: deps.db, keys: deps.keys, catalog });
  const credentials = { db: deps.db, kv: deps.kv, passwords: deps.passwords ?? argon2Passwords(), limits: deps.loginLimits ?? DEFAULT_LOGIN_LIMITS };
  const factor = { db: deps.db, kv: deps.kv, keys: deps.keys, limits: deps.mfaLimits ?? DEFAULT_MFA_LIMITS };
  const resend = { db: deps.db, kv: deps.kv, keys: deps.keys, enqueue: deps.enqueue, options: deps.confirmation ?? DEFAULT_CONFIRMATION_OPTIONS, logger: deps.logger };

  // The steps after the credentials, in order; each may end the login with its interruption.
  const steps = { confirmation: confirmationStep(resend), mfa: mfaStep(deps), terms: termsStep({ keys: deps.keys, catalog }) };
  const ORDER: (keyof typeof steps)[] = ["confirmation", "mfa", "terms"];
  const after = (name: keyof typeof steps): LoginStep[] => ORDER.slice(ORDER.indexOf(name) + 1).map((n) => steps[n]);

  /** Runs the remaining steps; with none interrupting, the grant, and then the complete-account check (missing fields computed once). */
  async function finish(ctx: LoginContext, remaining: readonly LoginStep[]): Promise<LoginOutcome> {
    for (const step of remaining) {
      const interruption = await step(ctx);
      if (interruption) return outcome(interruption);
    }
    const grant = await grantOf(deps.grants, ctx);
    const missing = ctx.fca ? missingMandatoryFields(ctx.resolved.entrypoint, ctx.user) : [];
    return outcome(missing.length ? profileIncomplete(missing, grant) : grant);
  }

  return {
    async login(req: LoginRequest): Promise<LoginOutcome> {
      const resolved = await entrypointOf(deps.entrypoints, req.caller);
      await checkAuthorizationRequest(deps.entrypoints, req.authorization, resolved);
      const answers = await terms.readLoginAnswers(resolved.entrypoint, req.assertions);
      const user = await checkCredentials(credentials, { email: req.email, password: req.password, clientAddress: req.caller?.clientAddress ?? "" });
      checkAccountStatus(user);
      await terms.recordLoginAnswers(user, answers, { clientId: resolved.clientId, sourceId: req.caller?.sourceId ?? "" });
      const ctx: LoginContext = { user, resolved, caller: req.caller, fca: req.fca, authorization: req.authorization, authenticatedAt: new Date() };
      return finish(ctx, ORDER.map((n) => steps[n]));
    },

    async completeMfa(req: MfaCompletion): Promise<LoginOutcome> {
      const resolved = await entrypointOf(deps.entrypoints, req.caller);
      await checkAuthorizationRequest(deps.entrypoints, req.authorization, resolved);
      const passed = await passMfaStep(factor, { mfaToken: req.mfaToken, code: req.code, clientId: resolved.clientId, entrypointId: resolved.entrypoint.id });
      if ("again" in passed) return outcome({ case: "mfaRequired", value: passed.again });
      checkAccountStatus(passed.user);
      deps.logger.info({ userId: passed.user.id }, "mfa passed");
      const ctx: LoginContext = {
        user: passed.user,
        resolved,
        caller: req.caller,
        fca: passed.binding.fca || req.fca,
        authorization: req.authorization,
        // The authentication finished with the second factor.
        authenticatedAt: new Date(),
      };
      return finish(ctx, after("mfa"));
    },
  };
}

export type LoginFlow = ReturnType<typeof createLoginFlow>;
