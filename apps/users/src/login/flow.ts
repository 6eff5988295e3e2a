import { create, type JsonObject } from "@bufbuild/protobuf";
import type { Kv } from "@gatehouse/kv";
import type { Logger } from "@gatehouse/logging";
import { LoginOutcomeSchema, type AuthorizationRequest, type Caller, type LoginOutcome } from "@gatehouse/proto";
import type { KeyRing } from "@gatehouse/secrets";
import { entrypointOf } from "../entrypoint.ts";
import type { LoginContext, LoginOutcomeCase } from "../flow/steps.ts";
import { finishFlow, newFlowId } from "../flow/token.ts";
import { passMfaStep, type MfaCompletionDeps } from "../mfa/complete.ts";
import { checkAdminScopes, checkConsoleAccess } from "../operators/console-access.ts";
import type { EntrypointDirectory, LoginGrants } from "../ports.ts";
import type { Terms } from "../terms/terms.ts";
import { localeOf } from "../caller.ts";
import { verifyProof, type Verifiers } from "../verifiers/index.ts";
import { linkAfterProof } from "../verifiers/upstream/link.ts";
import { checkAccountStatus } from "./account-status.ts";
import { createContinuation, type ContinuationDeps } from "./continuation.ts";
import { readCredential, type SentCredential } from "./credential.ts";
import { checkAuthorizationRequest, grantOf, profileIncomplete } from "./grant.ts";
import { stepsFrom, type StepName, type Steps } from "./steps.ts";

/** LoginUser's request, as the flow needs it. */
export interface LoginRequest extends SentCredential {
  caller: Caller | undefined;
  fca: boolean;
  /** `object.assertions`: answers recorded once the credential is right. */
  assertions: JsonObject | undefined;
  /** The hosted login's authorization request: a finished login is then a code. */
  authorization: AuthorizationRequest | undefined;
  /** An UPSTREAM_LINK_REQUIRED token: this login proves the account, then the identity is linked. */
  linkToken?: string;
}

/** CompleteMfaLogin's request: the 428's token and its code. */
export interface MfaCompletion {
  caller: Caller | undefined;
  mfaToken: string;
  code: string;
  fca: boolean;
  authorization: AuthorizationRequest | undefined;
}

export interface LoginFlowDeps {
  kv: Kv;
  keys: KeyRing;
  logger: Logger;
  entrypoints: EntrypointDirectory;
  grants: LoginGrants;
  verifiers: Verifiers;
  terms: Terms;
  /** The steps after the credentials (./steps.ts). */
  steps: Steps;
  /** The MFA step's second half (CompleteMfaLogin). */
  mfa: MfaCompletionDeps;
  /** Links an upstream identity after the account's proof. */
  link: Parameters<typeof linkAfterProof>[0];
  /** What the pages of a hosted flow apply (./continuation.ts). */
  continuation: Pick<ContinuationDeps, "users" | "confirm" | "update" | "passkeys">;
}

const outcome = (c: LoginOutcomeCase): LoginOutcome => create(LoginOutcomeSchema, { outcome: c });

/**
 * The login, in one place and in the contract's order (section 5):
 *
 *   entry point (403, ../entrypoint.ts) → `object.assertions` and the
 *   authorization request (400) → the credential (400, ./credential.ts)
 *   checked by its verifier behind its throttles (403, 429: ../verifiers/)
 *   → account status (403, ./account-status.ts) → answers recorded → the
 *   steps (./steps.ts: confirmation 412, MFA 428, terms 451, complete
 *   account 206) → grant (session or code, ./grant.ts).
 *
 * Errors are errors; every other end is a LoginOutcome case. LoginUser runs
 * it all; CompleteMfaLogin finishes the MFA step by its token and resumes
 * there; ContinueLogin resumes a hosted flow by its flow token
 * (./continuation.ts).
 */
export function createLoginFlow(deps: LoginFlowDeps) {
  const { terms } = deps;

  /** Runs the steps from `first`; with none interrupting, the grant (once per hosted flow). */
  async function finish(ctx: LoginContext, first: StepName): Promise<LoginOutcome> {
    for (const step of stepsFrom(deps.steps, first)) {
      const interruption = await step(ctx);
      if (interruption) return outcome(interruption);
    }
    if (ctx.flowId) await finishFlow(deps.kv, ctx.flowId);
    const grant = await grantOf(deps.grants, ctx);
    return outcome(ctx.missingFields?.length ? profileIncomplete(ctx.missingFields, grant) : grant);
  }

  const continuation = createContinuation({ ...deps.continuation, ...deps, finish });

  return {
    async login(req: LoginRequest): Promise<LoginOutcome> {
      const resolved = await entrypointOf(deps.entrypoints, req.caller);
      await checkAuthorizationRequest(deps.entrypoints, req.authorization, resolved);
      checkAdminScopes(req.authorization);
      const answers = await terms.readLoginAnswers(resolved.entrypoint, req.assertions);
      const { id, proof } = readCredential(req, resolved.entrypoint);
      const attempt = {
        ...(id ? { id } : {}),
        entrypoint: resolved.entrypoint,
        clientAddress: req.caller?.clientAddress ?? "",
        clientId: resolved.clientId,
        locale: localeOf(req.caller),
      };
      const { user, secondFactor } = await verifyProof(deps.verifiers, proof, attempt);
      // The account is proven (password or code): the upstream identity waiting for that proof is linked.
      if (req.linkToken && proof.kind !== "upstream")
        await linkAfterProof(
          deps.link,
          req.linkToken,
          user,
          resolved.entrypoint.id,
          req.authorization,
          attempt.clientAddress,
        );
      // Right after the credential, so only its holder learns it, and before anything is recorded or sent.
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
        ...(secondFactor ? { mfaPassed: true } : {}),
        ...(req.authorization ? { flowId: newFlowId() } : {}),
      };
      return finish(ctx, "confirmation");
    },

    async completeMfa(req: MfaCompletion): Promise<LoginOutcome> {
      const resolved = await entrypointOf(deps.entrypoints, req.caller);
      await checkAuthorizationRequest(deps.entrypoints, req.authorization, resolved);
      const passed = await passMfaStep(deps.mfa, {
        mfaToken: req.mfaToken,
        code: req.code,
        clientId: resolved.clientId,
        entrypointId: resolved.entrypoint.id,
        clientAddress: req.caller?.clientAddress ?? "",
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
      return finish(ctx, "mfa");
    },

    /** ContinueLogin: a hosted flow's next page (./continuation.ts). */
    continue: continuation.continue,
  };
}

export type LoginFlow = ReturnType<typeof createLoginFlow>;
