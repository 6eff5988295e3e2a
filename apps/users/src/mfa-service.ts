import type { ServiceImpl } from "@connectrpc/connect";
import { domainError, validationError } from "@gatehouse/errors";
import type { Caller, MfaService } from "@gatehouse/proto";
import { INTERNAL_SCOPE, type ScopePolicy } from "@gatehouse/rpc";
import type { UsersParts } from "./compose.ts";
import { confirmTotp, disableTotp, enrollTotp } from "./mfa/enrolment.ts";
import { countTokenGuess, extendForEnrolment, markMfaTokenProven, readMfaToken } from "./mfa/login-token.ts";

/** Only other Gatehouse services (the gateway) call it. */
export const mfaPolicy: ScopePolicy = {
  enrollTotp: [INTERNAL_SCOPE],
  confirmTotp: [INTERNAL_SCOPE],
  disableTotp: [INTERNAL_SCOPE],
  completeMfaLogin: [INTERNAL_SCOPE],
};

/** MfaService: TOTP enrolment, confirmation, disabling, and finishing a login's 428 (through the login flow). */
export function createMfaService(deps: UsersParts): ServiceImpl<typeof MfaService> {
  const { factor, flow } = deps;

  /** The user named by user_id, or by the MFA token of a login that must enrol (policy `required`). */
  async function subject(req: { userId: string; mfaToken: string; caller?: Caller }) {
    if (req.userId) return { userId: req.userId };
    if (!req.mfaToken) throw validationError([{ field: "userId", code: "required" }]);
    const current = await readMfaToken(deps.kv, req.mfaToken, { clientId: req.caller?.clientId ?? "" });
    if (!current.binding.enroll) throw domainError("MFA_TOKEN_INVALID", "This MFA token is not for an enrolment.");
    return { userId: current.binding.userId, token: { value: req.mfaToken, current } };
  }

  return {
    async enrollTotp(req) {
      const { userId, token } = await subject(req);
      const done = await enrollTotp(factor, userId, deps.totpIssuer);
      if (token) await extendForEnrolment(deps.kv, token.value, token.current);
      deps.logger.info({ userId }, "totp enrolled (not yet on)");
      return done;
    },

    async confirmTotp(req) {
      const who = await subject(req);
      if (who.token) await countTokenGuess(deps.kv, who.token.value, factor.limits.perToken);
      const recoveryCodes = await confirmTotp(factor, who.userId, req.code);
      // The code just proved also passes this login's MFA step.
      if (who.token) await markMfaTokenProven(deps.kv, who.token.value, who.token.current);
      deps.logger.info({ userId: who.userId }, "totp on");
      return { recoveryCodes };
    },

    async disableTotp(req) {
      if (!req.userId) throw validationError([{ field: "userId", code: "required" }]);
      await disableTotp(deps, {
        userId: req.userId,
        password: req.password,
        code: req.code,
        clientAddress: req.caller?.clientAddress ?? "",
      });
      deps.logger.info({ userId: req.userId }, "totp off");
      return {};
    },

    async completeMfaLogin(req) {
      const outcome = await flow.completeMfa({
        caller: req.caller,
        mfaToken: req.mfaToken,
        code: req.code,
        fca: req.fca,
        authorization: req.authorizationRequest,
      });
      return { outcome };
    },
  };
}
