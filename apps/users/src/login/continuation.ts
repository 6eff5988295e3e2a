import type { JsonObject } from "@bufbuild/protobuf";
import { domainError, errorFacts } from "@gatehouse/errors";
import type { Kv } from "@gatehouse/kv";
import type { AuthorizationRequest, Caller, LoginOutcome } from "@gatehouse/proto";
import type { KeyRing } from "@gatehouse/secrets";
import { localeOf } from "../caller.ts";
import { confirmIdentifier, type ConfirmDeps } from "../confirmation/confirm.ts";
import { keysToBeConfirmed } from "../confirmation/login-step.ts";
import { entrypointOf } from "../entrypoint.ts";
import type { LoginContext } from "../flow/steps.ts";
import { openFlowToken } from "../flow/token.ts";
import type { EntrypointDirectory, ResolvedEntrypoint } from "../ports.ts";
import { enrolPasskey } from "../passkeys/enrolment.ts";
import type { PasskeyDeps } from "../passkeys/relying-party.ts";
import type { Terms } from "../terms/terms.ts";
import { updateUser, type UpdateDeps } from "../update/update.ts";
import type { UserRecord } from "../users/record.ts";
import type { UserStore } from "../users/store.ts";
import { checkAuthorizationRequest } from "./grant.ts";
import type { StepName } from "./steps.ts";

/** ContinueLogin's request: the flow token and what the page sent. */
export interface ContinueRequest {
  caller: Caller | undefined;
  flowToken: string;
  authorization: AuthorizationRequest | undefined;
  /** The code of the identifier that blocks the login (412 page, registration). */
  confirmationCode: string;
  /** The page asked for a new confirmation code. */
  resendCode: boolean;
  /** Data fields to save like a patch (second registration step, missing fields). */
  datas: JsonObject | undefined;
  /** Answers to legal assertions (451 page). */
  assertions: JsonObject | undefined;
  /** The answer to the offer to create a passkey: its RegistrationResponseJSON, or none ("Not now"). */
  passkeyOffer?: { credential: JsonObject | undefined } | undefined;
}

export interface ContinuationDeps {
  entrypoints: EntrypointDirectory;
  keys: KeyRing;
  kv: Kv;
  users: UserStore;
  terms: Terms;
  /** The code of the 412 page confirms the blocking identifier. */
  confirm: ConfirmDeps;
  /** The missing-fields page saves data like a patch. */
  update: UpdateDeps;
  /** The passkey offer's answer is enrolled. */
  passkeys: PasskeyDeps;
  /** The login's steps from `first` on, then its grant (./flow.ts). */
  finish(ctx: LoginContext, first: StepName): Promise<LoginOutcome>;
}

/**
 * A hosted login between pages (contract section 8): the flow token names
 * the user who authenticated (password, code, or a registration of this
 * flow), the application, the entry point and the authorization request,
 * so a page continues the login without asking for the password again. What
 * the page sent is applied first (the confirmation code, data saved like a
 * patch, answers), then the login's remaining steps run again from the
 * confirmation (the MFA step passes a flow that proved it) to a code or the
 * next page.
 */
export function createContinuation(deps: ContinuationDeps) {
  /** The code confirms the identifier that blocks the login (the email first); INVALID_CODE when wrong. */
  async function confirmBlocking(user: UserRecord, resolved: ResolvedEntrypoint, code: string): Promise<UserRecord> {
    const unconfirmed = keysToBeConfirmed(resolved.entrypoint).filter(
      (k) => !user.identifiers.find((i) => i.key === k)?.confirmed,
    );
    const key = unconfirmed.includes("email") ? "email" : unconfirmed[0];
    if (!key) return user;
    return (await confirmIdentifier(deps.confirm, { userId: user.id, key, code })).user;
  }

  /** Data fields saved as a patch of this user through the flow's entry point (its rules, 416 on a broken one). */
  async function saveData(
    user: UserRecord,
    resolved: ResolvedEntrypoint,
    req: ContinueRequest,
    datas: JsonObject,
  ): Promise<UserRecord> {
    const done = await updateUser(deps.update, {
      mode: "patch",
      entrypoint: resolved.entrypoint,
      clientId: resolved.clientId,
      whitelist: resolved.whitelist ?? [],
      actorUserId: user.id,
      target: { userId: user.id },
      object: { objectType: "user", datas },
      contextUrl: "",
      // The flow token authenticated the user moments ago; only data fields are changed here.
      reauthenticatedByChallenge: true,
      locale: localeOf(req.caller),
      clientAddress: req.caller?.clientAddress ?? "",
      sourceId: req.caller?.sourceId ?? "",
    });
    return done.user;
  }

  /**
   * The offer's answer: "Not now", or a passkey enrolled for the flow's user.
   * One that fails (a spent challenge, a wrong origin, an authenticator
   * already enrolled) is offered again rather than failing the login.
   */
  async function answerOffer(user: UserRecord, offer: NonNullable<ContinueRequest["passkeyOffer"]>) {
    if (!offer.credential) return "answered" as const;
    try {
      await enrolPasskey(deps.passkeys, user.id, {
        name: undefined,
        credential: offer.credential as unknown as Parameters<typeof enrolPasskey>[2]["credential"],
      });
      return "answered" as const;
    } catch (err) {
      const reason = errorFacts(err).reason;
      if (reason === "PASSKEY_INVALID" || reason === "PASSKEY_EXISTS") return "retry" as const;
      if (reason === "PASSKEY_LIMIT") return "answered" as const;
      throw err;
    }
  }

  return {
    async continue(req: ContinueRequest): Promise<LoginOutcome> {
      const resolved = await entrypointOf(deps.entrypoints, req.caller);
      await checkAuthorizationRequest(deps.entrypoints, req.authorization, resolved);
      const state = await openFlowToken(deps.keys, deps.kv, req.flowToken, {
        clientId: resolved.clientId,
        entrypointId: resolved.entrypoint.id,
        authorization: req.authorization,
      });
      const answers = await deps.terms.readLoginAnswers(resolved.entrypoint, req.assertions);
      let user = await deps.users.byId(state.userId);
      if (!user) throw domainError("LOGIN_FLOW_INVALID");
      if (req.confirmationCode) user = await confirmBlocking(user, resolved, req.confirmationCode);
      if (req.datas && Object.keys(req.datas).length) user = await saveData(user, resolved, req, req.datas);
      const passkeyOffer = req.passkeyOffer ? await answerOffer(user, req.passkeyOffer) : undefined;
      await deps.terms.recordLoginAnswers(user, answers, {
        clientId: resolved.clientId,
        sourceId: req.caller?.sourceId ?? "",
        via: "page",
      });
      const ctx: LoginContext = {
        user,
        resolved,
        caller: req.caller,
        // A hosted login completes the account before its code (the page of a 206).
        fca: true,
        authorization: req.authorization,
        authenticatedAt: new Date(state.authTime),
        flowId: state.flowId,
        mfaPassed: state.mfaPassed,
        resend: state.codeSent && !req.resendCode ? "skip" : "send",
        ...(passkeyOffer ? { passkeyOffer } : {}),
      };
      return deps.finish(ctx, "confirmation");
    },
  };
}
