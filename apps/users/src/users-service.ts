import type { ConnectError, ServiceImpl } from "@connectrpc/connect";
import type { Db } from "@gatehouse/db";
import { domainError, errorFacts, validationError } from "@gatehouse/errors";
import type { DeliveryLocale } from "@gatehouse/jobs";
import type { Kv } from "@gatehouse/kv";
import type { Logger } from "@gatehouse/logging";
import { UpdateMode, type Caller, type Entrypoint, type Session, type User, type UsersService } from "@gatehouse/proto";
import type { KeyRing } from "@gatehouse/secrets";
import { confirmIdentifier } from "./confirmation/confirm.ts";
import type { Enqueue } from "./confirmation/issue.ts";
import { DEFAULT_CONFIRMATION_OPTIONS, type ConfirmationOptions } from "./confirmation/options.ts";
import { openResendToken, resendAtLogin, resendConfirmation } from "./confirmation/resend.ts";
import { argon2Passwords, type Passwords } from "./credentials/passwords.ts";
import { login, missingMandatoryFields } from "./login/login.ts";
import { runLoginSteps, type LoginContext, type LoginStep } from "./login/steps.ts";
import { mfaLoginStep, type MfaPolicy } from "./mfa/login-step.ts";
import { DEFAULT_LOGIN_LIMITS, type LoginLimits } from "./login/throttle.ts";
import { registerUser } from "./registration/register.ts";
import { noAssertions, type AssertionCatalog } from "./terms/catalog.ts";
import { createTerms } from "./terms/terms.ts";
import { termsRpc } from "./terms/terms-rpc.ts";
import { updateUser } from "./update/update.ts";
import type { IdKey } from "./users/identifiers.ts";
import { toUser } from "./users/model.ts";
import { userStore } from "./users/store.ts";

export interface ResolvedEntrypoint {
  entrypoint: Entrypoint;
  clientId: string;
  /** The application's context.url whitelist (exact strings). */
  whitelist?: string[];
  /** Where a confirmation link lands without a whitelisted context.url; empty = the hosted page. */
  defaultCallback?: string;
  /** The application's MFA policy: off (default), optional or required. */
  mfa?: string;
}

export interface UsersServiceDeps {
  db: Db;
  kv: Kv;
  keys: KeyRing;
  logger: Logger;
  /** The registry's GetEntrypoint; undefined when the entry point does not exist. */
  entrypoints: (entrypointId: string) => Promise<ResolvedEntrypoint | undefined>;
  /** The registry's legal-assertion catalog (latest versions by typology); absent = no assertions. */
  assertions?: AssertionCatalog;
  /** Queues a confirmation delivery; throws when the queue cannot take it. */
  enqueue: Enqueue;
  /** Opens the OAuth session of a user (the auth service); absent = no session in responses. */
  openSession?: (user: User, caller: Caller | undefined) => Promise<Session>;
  passwords?: Passwords;
  loginLimits?: LoginLimits;
  confirmation?: ConfirmationOptions;
}

const localeOf = (caller: Caller | undefined): DeliveryLocale => (caller?.locale === "es" ? "es" : "en");

export type LoginFlow = ReturnType<typeof createLoginFlow>;

/**
 * What a login does once the password is right: the policy steps and the
 * session. Shared by LoginUser and MfaService.CompleteMfaLogin (a 428 finished).
 */
export function createLoginFlow(deps: UsersServiceDeps) {
  const mfaPolicy = async (ctx: LoginContext): Promise<MfaPolicy> => {
    const p = (await deps.entrypoints(ctx.entrypoint.id))?.mfa;
    return p === "optional" || p === "required" ? p : "off";
  };

  // The login's policy steps after the password, in the contract's order:
  // MFA (428), then terms (451). Each arrives with its feature (issue 4).
  const loginSteps: LoginStep[] = [mfaLoginStep({ db: deps.db, kv: deps.kv, policyOf: mfaPolicy })];
  // Terms (451) stays the last step.
  loginSteps.push(createTerms({ db: deps.db, keys: deps.keys, catalog: deps.assertions ?? noAssertions }).step());

  /** The caller's entry point, which must belong to the caller's application. */
  async function entrypointOf(caller: Caller | undefined): Promise<ResolvedEntrypoint> {
    const id = caller?.entrypointId ?? "";
    const found = id ? await deps.entrypoints(id) : undefined;
    if (!found) throw domainError("ENTRYPOINT_NOT_FOUND", undefined, { metadata: { entrypoint_id: id } });
    if (found.clientId !== caller?.clientId) {
      throw domainError("PERMISSION_DENIED", "The entry point does not belong to the calling application.", {
        metadata: { entrypoint_id: id },
      });
    }
    return found;
  }

  /** Runs the steps (a 428 or 451 interrupts), then opens the session. */
  async function finishLogin(ctx: LoginContext) {
    await runLoginSteps(loginSteps, ctx);
    const user = toUser(ctx.user);
    const session = deps.openSession ? await deps.openSession(user, ctx.caller) : undefined;
    return { user, session, missingFields: ctx.fca ? missingMandatoryFields(ctx.entrypoint, ctx.user) : [] };
  }

  return { entrypointOf, finishLogin };
}

/** UsersService over the domain modules: maps requests in and results out, nothing more. */
export function createUsersService(deps: UsersServiceDeps, flow: LoginFlow = createLoginFlow(deps)): ServiceImpl<typeof UsersService> {
  const passwords = deps.passwords ?? argon2Passwords();
  const limits = deps.loginLimits ?? DEFAULT_LOGIN_LIMITS;
  const options = deps.confirmation ?? DEFAULT_CONFIRMATION_OPTIONS;
  const { entrypointOf, finishLogin } = flow;

  const resendDeps = () => ({ db: deps.db, kv: deps.kv, keys: deps.keys, enqueue: deps.enqueue, options });
  const catalog = deps.assertions ?? noAssertions;
  const terms = createTerms({ db: deps.db, keys: deps.keys, catalog });

  return {
    ...termsRpc(terms, deps.entrypoints, deps.logger),

    async registerUser(req) {
      const { entrypoint, clientId } = await entrypointOf(req.caller);
      try {
        const done = await registerUser(
          { db: deps.db, keys: deps.keys, enqueue: deps.enqueue, options, passwords, catalog },
          { entrypoint, clientId, object: req.object, locale: localeOf(req.caller), sourceId: req.caller?.sourceId ?? "" },
        );
        const user = toUser(done.user);
        deps.logger.info({ userId: user.id, entrypointId: entrypoint.id, pending: done.pendingConfirmation }, "user registered");
        const session = done.pendingConfirmation.length === 0 && deps.openSession ? await deps.openSession(user, req.caller) : undefined;
        return { user, session };
      } catch (err) {
        if (errorFacts(err).reason === "CONFIRMATION_NOT_QUEUED") {
          deps.logger.error({ err: (err as ConnectError).cause, entrypointId: entrypoint.id }, "confirmation delivery not queued");
        }
        throw err;
      }
    },

    async loginUser(req) {
      const { entrypoint } = await entrypointOf(req.caller);
      const onUnconfirmed = async (user: { id: string }, unconfirmed: IdKey[]) => {
        const done = await resendAtLogin(resendDeps(), { userId: user.id, unconfirmed, locale: localeOf(req.caller) });
        if (done.notQueued) deps.logger.error({ err: (done.notQueued as ConnectError).cause, userId: user.id }, "confirmation resend not queued");
        return done.metadata;
      };
      // object.assertions: checked before the password (400), recorded once it is right, before MFA and terms.
      const answers = await terms.readLoginAnswers(entrypoint, req.assertions);
      const done = await login(
        { db: deps.db, kv: deps.kv, passwords, limits, onUnconfirmed },
        { email: req.email, password: req.password, entrypoint, clientAddress: req.caller?.clientAddress ?? "" },
      );
      await terms.recordLoginAnswers(done.user, answers, { clientId: req.caller?.clientId ?? "", sourceId: req.caller?.sourceId ?? "" });
      return finishLogin({
        user: done.user,
        entrypoint,
        clientId: req.caller?.clientId ?? "",
        caller: req.caller,
        assertions: req.assertions,
        mfaPassed: false,
        fca: req.fca,
      });
    },

    async getUser(req) {
      if (!req.userId && !req.pulseId) throw validationError([{ field: "userId", code: "required" }]);
      const store = userStore(deps.db);
      const found = req.userId ? await store.byId(req.userId) : await store.byPulseId(req.pulseId);
      if (!found || (req.pulseId && req.userId && found.pulseId !== req.pulseId)) throw domainError("USER_NOT_FOUND");
      return { user: toUser(found) };
    },

    async updateUser(req) {
      const resolved = await entrypointOf(req.caller);
      const mode = req.mode === UpdateMode.REPLACE ? "replace" : req.mode === UpdateMode.PATCH ? "patch" : undefined;
      if (!mode) throw validationError([{ field: "mode", code: "required" }]);
      if (!req.actorUserId) throw validationError([{ field: "actorUserId", code: "required" }]);
      const target = req.targetPulseId ? { pulseId: req.targetPulseId } : { userId: req.targetUserId || req.actorUserId };
      try {
        const done = await updateUser(
          { db: deps.db, kv: deps.kv, keys: deps.keys, enqueue: deps.enqueue, options, passwords, limits, catalog },
          {
            mode,
            entrypoint: resolved.entrypoint,
            clientId: resolved.clientId,
            whitelist: resolved.whitelist ?? [],
            actorUserId: req.actorUserId,
            target,
            object: req.object,
            contextUrl: req.contextUrl,
            reauthenticatedByChallenge: req.reauthenticatedByChallenge,
            locale: localeOf(req.caller),
            clientAddress: req.caller?.clientAddress ?? "",
            sourceId: req.caller?.sourceId ?? "",
          },
        );
        if (done.changed) deps.logger.info({ userId: done.user.id, mode, pending: done.pending }, "user updated");
        return { user: toUser(done.user), changed: done.changed, pendingFields: done.pending.map((k) => `object.ids.${k}.value`) };
      } catch (err) {
        if (errorFacts(err).reason === "CONFIRMATION_NOT_QUEUED") deps.logger.error({ err: (err as ConnectError).cause }, "confirmation delivery not queued");
        throw err;
      }
    },

    async confirmIdentifier(req) {
      const done = await confirmIdentifier(
        { db: deps.db, keys: deps.keys, options },
        req.linkToken ? { linkToken: req.linkToken } : { userId: req.userId, key: req.key, code: req.code },
      );
      deps.logger.info({ userId: done.user.id, key: done.key }, "identifier confirmed");
      // No whitelisted context.url: the application's default callback (empty = the hosted page).
      const fallback = !done.contextUrl && done.entrypointId ? ((await deps.entrypoints(done.entrypointId).catch(() => undefined))?.defaultCallback ?? "") : "";
      return { user: toUser(done.user), redirectUrl: done.contextUrl || fallback };
    },

    async resendConfirmation(req) {
      const target = req.resendToken ? openResendToken(deps.keys, req.resendToken) : { userId: req.userId, key: req.key };
      if (!target.userId || !target.key) throw validationError([{ field: target.userId ? "key" : "userId", code: "required" }]);
      try {
        const outcome = await resendConfirmation(resendDeps(), { ...target, locale: localeOf(req.caller) });
        if (outcome.status === "limited") {
          throw domainError("RATE_LIMITED", "Too many confirmation messages were sent; try again later.", {
            metadata: { retry_after: String(outcome.retryAfterSeconds) },
          });
        }
        deps.logger.info({ userId: target.userId, key: target.key, sent: outcome.status === "sent" }, "confirmation resend");
        return {};
      } catch (err) {
        if (errorFacts(err).reason === "CONFIRMATION_NOT_QUEUED") {
          deps.logger.error({ err: (err as ConnectError).cause, userId: target.userId }, "confirmation resend not queued");
        }
        throw err;
      }
    },
  };
}
