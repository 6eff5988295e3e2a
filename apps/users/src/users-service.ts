import type { ConnectError, ServiceImpl } from "@connectrpc/connect";
import { domainError, errorFacts, validationError } from "@gatehouse/errors";
import { UpdateMode, type UsersService } from "@gatehouse/proto";
import { accessCodeRpc } from "./access-code/rpc.ts";
import { activationRpc } from "./activation/rpc.ts";
import type { BackgroundTasks } from "./background.ts";
import { localeOf } from "./caller.ts";
import type { UsersParts } from "./compose.ts";
import { confirmIdentifier } from "./confirmation/confirm.ts";
import { resendConfirmation } from "./confirmation/resend.ts";
import { openResendToken } from "./confirmation/resend-token.ts";
import { entrypointOf } from "./entrypoint.ts";
import type { LoginRequest } from "./login/flow.ts";
import { checkAuthorizationRequest } from "./login/grant.ts";
import { registrationFlowToken } from "./registration/flow.ts";
import { registerUser } from "./registration/register.ts";
import { registerWithSignupToken, socialRpc } from "./social/rpc.ts";
import { termsRpc } from "./terms/terms-rpc.ts";
import { updateUser } from "./update/update.ts";
import { toUser } from "./users/model.ts";

/** UsersService over the domain modules and the login flow: maps requests in and results out, nothing more. */
export function createUsersService(deps: UsersParts, background: BackgroundTasks): ServiceImpl<typeof UsersService> {
  const { flow } = deps;
  const logNotQueued = (err: unknown, context: Record<string, unknown>, msg: string) => {
    if (errorFacts(err).reason === "CONFIRMATION_NOT_QUEUED")
      deps.logger.error({ err: (err as ConnectError).cause, ...context }, msg);
  };

  return {
    ...termsRpc(deps.terms, deps.entrypoints, deps.logger),
    ...accessCodeRpc({ ...deps, background }),
    ...activationRpc(deps),
    ...socialRpc(deps),

    async registerUser(req) {
      const resolved = await entrypointOf(deps.entrypoints, req.caller);
      const { entrypoint, clientId } = resolved;
      await checkAuthorizationRequest(deps.entrypoints, req.authorizationRequest, resolved);
      try {
        const done = req.upstreamToken
          ? await registerWithSignupToken(deps, {
              token: req.upstreamToken,
              resolved,
              authorization: req.authorizationRequest,
              object: req.object,
              caller: req.caller,
            })
          : await registerUser(deps.register, {
              entrypoint,
              clientId,
              phonePrefixes: resolved.phonePrefixes,
              object: req.object,
              locale: localeOf(req.caller),
              sourceId: req.caller?.sourceId ?? "",
              step: req.step,
              requireMandatoryAssertions: Boolean(req.authorizationRequest),
            });
        const user = toUser(done.user);
        deps.logger.info(
          { userId: user.id, entrypointId: entrypoint.id, pending: done.pendingConfirmation },
          "user registered",
        );
        // The hosted registration page continues to a code through its flow (ContinueLogin); no session is opened.
        if (req.authorizationRequest)
          return { user, flowToken: registrationFlowToken(deps.keys, done, resolved, req.authorizationRequest) };
        const session =
          done.pendingConfirmation.length === 0 ? await deps.grants.openSession(user.id, clientId) : undefined;
        return { user, session };
      } catch (err) {
        logNotQueued(err, { entrypointId: entrypoint.id }, "confirmation delivery not queued");
        throw err;
      }
    },

    async loginUser(req) {
      const login: LoginRequest = {
        caller: req.caller,
        email: req.email,
        phoneNumber: req.phoneNumber,
        password: req.password,
        code: req.code,
        datas: req.datas,
        fca: req.fca,
        assertions: req.assertions,
        authorization: req.authorizationRequest,
        passkey: req.passkey && { token: req.passkey.token, credential: req.passkey.credential },
        ...(req.upstream ? { upstream: req.upstream } : {}),
        ...(req.linkToken ? { linkToken: req.linkToken } : {}),
      };
      const outcome = await flow.login(login);
      return { outcome };
    },

    async continueLogin(req) {
      const outcome = await flow.continue({
        caller: req.caller,
        flowToken: req.flowToken,
        authorization: req.authorizationRequest,
        confirmationCode: req.confirmationCode,
        resendCode: req.resendCode,
        datas: req.datas,
        assertions: req.assertions,
        passkeyOffer: req.passkeyOffer && { credential: req.passkeyOffer.credential },
      });
      return { outcome };
    },

    async getUser(req) {
      if (!req.userId && !req.pulseId) throw validationError([{ field: "userId", code: "required" }]);
      const { users } = deps.data;
      const found = req.userId ? await users.byId(req.userId) : await users.byPulseId(req.pulseId);
      if (!found || (req.pulseId && req.userId && found.pulseId !== req.pulseId)) throw domainError("USER_NOT_FOUND");
      return { user: toUser(found) };
    },

    async updateUser(req) {
      const resolved = await entrypointOf(deps.entrypoints, req.caller);
      const mode = req.mode === UpdateMode.REPLACE ? "replace" : req.mode === UpdateMode.PATCH ? "patch" : undefined;
      if (!mode) throw validationError([{ field: "mode", code: "required" }]);
      if (!req.actorUserId) throw validationError([{ field: "actorUserId", code: "required" }]);
      const target = req.targetPulseId
        ? { pulseId: req.targetPulseId }
        : { userId: req.targetUserId || req.actorUserId };
      try {
        const done = await updateUser(deps.update, {
          mode,
          entrypoint: resolved.entrypoint,
          clientId: resolved.clientId,
          whitelist: resolved.whitelist ?? [],
          phonePrefixes: resolved.phonePrefixes,
          actorUserId: req.actorUserId,
          target,
          object: req.object,
          contextUrl: req.contextUrl,
          reauthenticatedByChallenge: req.reauthenticatedByChallenge,
          locale: localeOf(req.caller),
          clientAddress: req.caller?.clientAddress ?? "",
          sourceId: req.caller?.sourceId ?? "",
        });
        if (done.changed) deps.logger.info({ userId: done.user.id, mode, pending: done.pending }, "user updated");
        return {
          user: toUser(done.user),
          changed: done.changed,
          pendingFields: done.pending.map((k) => `object.ids.${k}.value`),
        };
      } catch (err) {
        logNotQueued(err, {}, "confirmation delivery not queued");
        throw err;
      }
    },

    async confirmIdentifier(req) {
      const done = await confirmIdentifier(
        deps.confirm,
        req.linkToken ? { linkToken: req.linkToken } : { userId: req.userId, key: req.key, code: req.code },
      );
      deps.logger.info({ userId: done.user.id, key: done.key }, "identifier confirmed");
      // No whitelisted context.url: the application's default callback (empty = the hosted page).
      const fallback =
        !done.contextUrl && done.entrypointId
          ? ((await deps.entrypoints(done.entrypointId).catch(() => undefined))?.defaultCallback ?? "")
          : "";
      return { user: toUser(done.user), redirectUrl: done.contextUrl || fallback };
    },

    async resendConfirmation(req) {
      const target = req.resendToken
        ? openResendToken(deps.keys, req.resendToken)
        : { userId: req.userId, key: req.key, entrypointId: "" };
      // The resend page asks first whether the token's application wants the bot check (section 17).
      if (req.peek) {
        const resolved = target.entrypointId ? await deps.entrypoints(target.entrypointId) : undefined;
        return { captcha: resolved?.captcha || "off" };
      }
      if (!target.userId || !target.key)
        throw validationError([{ field: target.userId ? "key" : "userId", code: "required" }]);
      try {
        const outcome = await resendConfirmation(deps.resend, { ...target, locale: localeOf(req.caller) });
        if (outcome.status === "limited") {
          throw domainError("RATE_LIMITED", "Too many confirmation messages were sent; try again later.", {
            metadata: { retry_after: String(outcome.retryAfterSeconds) },
          });
        }
        deps.logger.info(
          { userId: target.userId, key: target.key, sent: outcome.status === "sent" },
          "confirmation resend",
        );
        return {};
      } catch (err) {
        logNotQueued(err, { userId: target.userId }, "confirmation resend not queued");
        throw err;
      }
    },
  };
}
