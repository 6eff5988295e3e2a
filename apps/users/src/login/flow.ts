import { create, type JsonObject } from "@bufbuild/protobuf";
import { validationError } from "@gatehouse/errors";
import {
  LoginOutcomeSchema,
  ProfileRequiredSchema,
  type AuthorizationRequest,
  type Caller,
  type LoginOutcome,
} from "@gatehouse/proto";
import { DEFAULT_ACCESS_CODE_OPTIONS } from "../access-code/options.ts";
import { checkCodeCredentials, readValidationData } from "../verifiers/one-time-code/verifier.ts";
import { confirmationStep } from "../confirmation/login-step.ts";
import { DEFAULT_CONFIRMATION_OPTIONS } from "../confirmation/options.ts";
import { argon2Passwords } from "../credentials/passwords.ts";
import type { UsersDeps } from "../deps.ts";
import { passMfaStep } from "../mfa/complete.ts";
import { DEFAULT_MFA_LIMITS } from "../verifiers/totp/factor.ts";
import { mfaStep } from "../mfa/login-step.ts";
import { noAssertions } from "../terms/catalog.ts";
import { termsStep } from "../terms/login-step.ts";
import { createTerms } from "../terms/terms.ts";
import { checkAdminScopes, checkConsoleAccess, refuseConsoleCode } from "../operators/console-access.ts";
import { checkAccountStatus } from "./account-status.ts";
import { canonicalEmail, canonicalPhone } from "../users/identifiers.ts";
import { createContinuation } from "./continuation.ts";
import { checkCredentials, type LoginIdentifier } from "../verifiers/password/verifier.ts";
import { entrypointOf } from "../entrypoint.ts";
import { finishFlow, flowTokenOf, newFlowId } from "../flow/token.ts";
import { checkAuthorizationRequest, grantOf, profileIncomplete } from "./grant.ts";
import { missingMandatoryFields } from "./profile.ts";
import type { LoginContext, LoginOutcomeCase, LoginStep } from "../flow/steps.ts";
import { DEFAULT_LOGIN_LIMITS } from "../verifiers/throttle.ts";

/** LoginUser's request, as the flow needs it. */
export interface LoginRequest {
  caller: Caller | undefined;
  email: string;
  /** The phone instead of the email (an entry point whose main id is the phone). */
  phoneNumber?: string;
  password: string;
  /** A one-time code instead of the password (code sign-in). */
  code?: string;
  /** `object.datas`: the `useForValidation` values code sign-in repeats. */
  datas?: JsonObject;
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

/** The identifier of a login: the email, or the phone; not both. Which credential: a password or a code; not both. */
function loginIdentifier(req: LoginRequest): LoginIdentifier {
  const violations = [];
  if (req.email && req.phoneNumber) violations.push({ field: "object.ids.phone_number", code: "not_allowed" });
  if (req.code && req.password) violations.push({ field: "object.code", code: "not_allowed" });
  if (!req.code && req.datas && Object.keys(req.datas).length)
    violations.push({ field: "object.datas", code: "not_allowed" });
  if (violations.length) throw validationError(violations);
  return req.phoneNumber
    ? { key: "phone_number", value: canonicalPhone(req.phoneNumber) }
    : { key: "email", value: canonicalEmail(req.email) };
}

/**
 * The login, in one place and in the contract's order (section 5):
 *
 *   entry point (403, ./entrypoint.ts) → `object.assertions` (400) and the
 *   authorization request (400) → credentials and throttles (403, 429:
 *   a password, ./credentials.ts, or a one-time code, access-code/sign-in.ts)
 *   → account status (403, ./account-status.ts) → answers recorded → confirmation (412,
 *   confirmation/login-step.ts) → MFA (428, mfa/login-step.ts) → terms (451,
 *   terms/login-step.ts) → complete account (206 with fca, ./profile.ts; a
 *   hosted login asks for the data before its code) → grant (session or
 *   code, ./grant.ts).
 *
 * Errors are errors; every other end is a LoginOutcome case. LoginUser runs
 * it all; CompleteMfaLogin finishes the MFA step by its token and resumes
 * after it; ContinueLogin resumes a hosted flow by its flow token
 * (./continuation.ts).
 */
export function createLoginFlow(deps: UsersDeps) {
  const catalog = deps.assertions ?? noAssertions;
  const terms = createTerms({ db: deps.db, keys: deps.keys, catalog });
  const passwords = deps.passwords ?? argon2Passwords();
  const limits = deps.loginLimits ?? DEFAULT_LOGIN_LIMITS;
  const options = deps.confirmation ?? DEFAULT_CONFIRMATION_OPTIONS;
  const credentials = { db: deps.db, kv: deps.kv, passwords, limits };
  const codes = {
    db: deps.db,
    kv: deps.kv,
    keys: deps.keys,
    limits,
    accessCodes: deps.accessCodes ?? DEFAULT_ACCESS_CODE_OPTIONS,
    options,
  };
  const factor = { db: deps.db, kv: deps.kv, keys: deps.keys, limits: deps.mfaLimits ?? DEFAULT_MFA_LIMITS };
  const resend = { db: deps.db, kv: deps.kv, keys: deps.keys, enqueue: deps.enqueue, options, logger: deps.logger };

  // The steps after the credentials, in order; each may end the login with its interruption.
  const steps = {
    confirmation: confirmationStep(resend),
    mfa: mfaStep(deps),
    terms: termsStep({ keys: deps.keys, catalog }),
  };
  const ORDER: (keyof typeof steps)[] = ["confirmation", "mfa", "terms"];
  const after = (name: keyof typeof steps): LoginStep[] => ORDER.slice(ORDER.indexOf(name) + 1).map((n) => steps[n]);

  /**
   * Runs the remaining steps; with none interrupting, the complete-account
   * check (missing fields computed once) and the grant. A hosted login
   * missing data asks for it first (ProfileRequired), so its code is only
   * issued once the account is complete, and exactly once per flow.
   */
  async function finish(ctx: LoginContext, remaining: readonly LoginStep[]): Promise<LoginOutcome> {
    for (const step of remaining) {
      const interruption = await step(ctx);
      if (interruption) return outcome(interruption);
    }
    const missing = ctx.fca ? missingMandatoryFields(ctx.resolved.entrypoint, ctx.user) : [];
    if (missing.length && ctx.authorization) {
      return outcome({
        case: "profileRequired",
        value: create(ProfileRequiredSchema, { missingFields: missing, flowToken: flowTokenOf(deps.keys, ctx) }),
      });
    }
    if (ctx.flowId) await finishFlow(deps.kv, ctx.flowId);
    const grant = await grantOf(deps.grants, ctx);
    return outcome(missing.length ? profileIncomplete(missing, grant) : grant);
  }

  const continuation = createContinuation(deps, { terms, finish, steps, options, passwords, limits, catalog });

  return {
    async login(req: LoginRequest): Promise<LoginOutcome> {
      const resolved = await entrypointOf(deps.entrypoints, req.caller);
      await checkAuthorizationRequest(deps.entrypoints, req.authorization, resolved);
      checkAdminScopes(req.authorization);
      const answers = await terms.readLoginAnswers(resolved.entrypoint, req.assertions);
      const id = loginIdentifier(req);
      if (req.code) refuseConsoleCode(resolved.entrypoint.id, "object.code");
      const clientAddress = req.caller?.clientAddress ?? "";
      const user = req.code
        ? await checkCodeCredentials(codes, {
            id,
            code: req.code,
            datas: readValidationData(resolved.entrypoint, req.datas),
            entrypoint: resolved.entrypoint,
            clientAddress,
          })
        : await checkCredentials(credentials, { id, password: req.password, clientAddress });
      // Right after the credentials, so only the password's holder learns it, and before anything is recorded or sent.
      checkAccountStatus(user);
      checkConsoleAccess(req.authorization, user);
      await terms.recordLoginAnswers(user, answers, {
        clientId: resolved.clientId,
        sourceId: req.caller?.sourceId ?? "",
      });
      const ctx: LoginContext = {
        user,
        resolved,
        caller: req.caller,
        fca: req.fca,
        authorization: req.authorization,
        authenticatedAt: new Date(),
        ...(req.authorization ? { flowId: newFlowId() } : {}),
      };
      return finish(
        ctx,
        ORDER.map((n) => steps[n]),
      );
    },

    async completeMfa(req: MfaCompletion): Promise<LoginOutcome> {
      const resolved = await entrypointOf(deps.entrypoints, req.caller);
      await checkAuthorizationRequest(deps.entrypoints, req.authorization, resolved);
      const passed = await passMfaStep(factor, {
        mfaToken: req.mfaToken,
        code: req.code,
        clientId: resolved.clientId,
        entrypointId: resolved.entrypoint.id,
      });
      if ("again" in passed) return outcome({ case: "mfaRequired", value: passed.again });
      checkAccountStatus(passed.user);
      checkConsoleAccess(req.authorization, passed.user);
      deps.logger.info({ userId: passed.user.id }, "mfa passed");
      const ctx: LoginContext = {
        user: passed.user,
        resolved,
        caller: req.caller,
        fca: passed.binding.fca || req.fca,
        authorization: req.authorization,
        // The authentication finished with the second factor.
        authenticatedAt: new Date(),
        mfaPassed: true,
        ...(req.authorization ? { flowId: newFlowId() } : {}),
      };
      return finish(ctx, after("mfa"));
    },

    /** ContinueLogin: a hosted flow's next page (./continuation.ts). */
    continue: continuation.continue,
  };
}

export type LoginFlow = ReturnType<typeof createLoginFlow>;
