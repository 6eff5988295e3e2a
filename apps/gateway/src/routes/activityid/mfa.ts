import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply } from "fastify";
import type { Principal } from "@gatehouse/rpc";
import Type from "typebox";
import type { Wired } from "../../deps.ts";
import { noBody } from "../../http/admin-call.ts";
import { isAppToken } from "../../http/app-token.ts";
import { requireBearer, type BearerRule } from "../../http/bearer-guard.ts";
import { sendContent, sendError } from "../../http/envelope.ts";
import { applicationOf, isUserToken, userToken } from "../../http/user-token.ts";
import { errorResponses, Result } from "../../schemas/common.ts";
import { TotpConfirmBody, TotpDisableBody, TotpEnrollBody } from "../../schemas/mfa.ts";

/** Enrolment takes the user's ACCESS_TOKEN, or the APP_TOKEN of a login that answered 428 (with that 428's token in the body). */
const userOrAppToken: BearerRule = (p) =>
  isUserToken(p) ||
  isAppToken(p) || {
    error: "invalid_token",
    description: "the ACCESS_TOKEN of the user, or an APP_TOKEN with the 428's token, is required",
  };

/** Who enrols: the user of an access token, or the user of a 428's MFA token presented with the APP_TOKEN of that login. */
function subjectOf(p: Principal, mfaToken: string | undefined) {
  if (isUserToken(p)) return { userId: p.subject, mfaToken: "", caller: { clientId: applicationOf(p) } };
  if (mfaToken) return { userId: "", mfaToken, caller: { clientId: p.clientId! } };
  return undefined;
}

const unauthenticated = (reply: FastifyReply) =>
  sendError(reply, "UNAUTHENTICATED", {
    details: "Authorization: Bearer <ACCESS_TOKEN> of the user (or <APP_TOKEN> with the 428's token) required",
  });

/**
 * {base_url}/activityid/v1/user/mfa/totp: enrol (secret and otpauth URL, off
 * until confirmed), confirm (a code turns it on; 10 recovery codes, shown
 * once) and disable (re-authentication with the password or a code).
 */
export const mfaRoutes: FastifyPluginAsyncTypebox<Wired<"mfa">> = async (app, deps) => {
  const common = { tags: ["users"], security: [{ bearer: [] }] };
  const enrolling = requireBearer(deps.verifyAccessToken, userOrAppToken);

  app.post(
    "/activityid/v1/user/mfa/totp",
    {
      // The user's own enrolment has no body (contract section 7): a bare POST, even one declaring JSON, is not malformed.
      onRequest: [noBody, enrolling],
      preValidation: async (req) => {
        if (req.body === undefined) req.body = {};
      },
      schema: {
        ...common,
        summary: "Enrol a TOTP authenticator",
        body: Type.Optional(TotpEnrollBody),
        response: {
          200: Type.Object({
            content: Type.Object({ totp: Type.Object({ secret: Type.String(), otpauth_url: Type.String() }) }),
            result: Result,
          }),
          ...errorResponses(400, 401, 403, 409),
        },
      },
    },
    async (req, reply) => {
      const who = subjectOf(req.principal!, req.body?.token);
      if (!who) return unauthenticated(reply);
      const res = await deps.mfa.enrollTotp(who);
      reply.header("cache-control", "no-store");
      return sendContent(reply, 200, { totp: { secret: res.secret, otpauth_url: res.otpauthUrl } });
    },
  );

  app.post(
    "/activityid/v1/user/mfa/totp/confirm",
    {
      onRequest: enrolling,
      schema: {
        ...common,
        summary: "Turn TOTP on with a first code",
        body: TotpConfirmBody,
        response: {
          200: Type.Object({
            content: Type.Object({
              mfa: Type.Object({ methods: Type.Array(Type.String()), recovery_codes: Type.Array(Type.String()) }),
            }),
            result: Result,
          }),
          ...errorResponses(400, 401, 403, 409, 429),
        },
      },
    },
    async (req, reply) => {
      const who = subjectOf(req.principal!, req.body.token);
      if (!who) return unauthenticated(reply);
      const res = await deps.mfa.confirmTotp({ ...who, code: req.body.code });
      return sendContent(reply, 200, { mfa: { methods: ["totp"], recovery_codes: res.recoveryCodes } });
    },
  );

  app.post(
    "/activityid/v1/user/mfa/totp/disable",
    {
      onRequest: requireBearer(deps.verifyAccessToken, userToken),
      schema: {
        ...common,
        summary: "Turn TOTP off (password or code)",
        body: TotpDisableBody,
        response: {
          200: Type.Object({
            content: Type.Object({ mfa: Type.Object({ methods: Type.Array(Type.String()) }) }),
            result: Result,
          }),
          ...errorResponses(400, 401, 403, 409, 429),
        },
      },
    },
    async (req, reply) => {
      const user = req.principal!;
      if (!req.body.password && !req.body.code)
        return sendError(reply, "VALIDATION_FAILED", { violations: [{ field: "password", code: "required" }] });
      await deps.mfa.disableTotp({
        userId: user.subject,
        password: req.body.password ?? "",
        code: req.body.code ?? "",
        caller: { clientId: applicationOf(user), clientAddress: req.ip, locale: req.locale },
      });
      return sendContent(reply, 200, { mfa: { methods: [] } });
    },
  );
};
