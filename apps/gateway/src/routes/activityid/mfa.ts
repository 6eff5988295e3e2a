import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import Type from "typebox";
import type { GatewayDeps } from "../../deps.ts";
import { appPrincipal } from "../../http/app-token.ts";
import { sendContent, sendError } from "../../http/envelope.ts";
import { userPrincipal } from "../../http/user-token.ts";
import { errorResponses, Result } from "../../schemas/common.ts";
import { TotpConfirmBody, TotpDisableBody, TotpEnrollBody } from "../../schemas/mfa.ts";

/** Who enrols: the user of an access token, or the user of a 428's MFA token presented with the APP_TOKEN of that login. */
async function subjectOf(req: FastifyRequest, deps: GatewayDeps, mfaToken: string | undefined) {
  const user = await userPrincipal(req, deps);
  if (user) return { userId: user.subject, mfaToken: "", caller: { clientId: user.clientId! } };
  const appToken = mfaToken ? await appPrincipal(req, deps) : undefined;
  if (appToken) return { userId: "", mfaToken: mfaToken!, caller: { clientId: appToken.clientId! } };
  return undefined;
}

const unauthenticated = (reply: FastifyReply) =>
  sendError(reply, "UNAUTHENTICATED", { details: "Authorization: Bearer <ACCESS_TOKEN> of the user (or <APP_TOKEN> with the 428's token) required" });

/**
 * {base_url}/activityid/v1/user/mfa/totp: enrol (secret and otpauth URL, off
 * until confirmed), confirm (a code turns it on; 10 recovery codes, shown
 * once) and disable (re-authentication with the password or a code).
 */
export const mfaRoutes: FastifyPluginAsyncTypebox<GatewayDeps> = async (app, deps) => {
  const common = { tags: ["users"], security: [{ bearer: [] }] };

  app.post(
    "/activityid/v1/user/mfa/totp",
    {
      schema: {
        ...common,
        summary: "Enrol a TOTP authenticator",
        body: Type.Optional(TotpEnrollBody),
        response: {
          200: Type.Object({ content: Type.Object({ totp: Type.Object({ secret: Type.String(), otpauth_url: Type.String() }) }), result: Result }),
          ...errorResponses(400, 401, 403, 409),
        },
      },
    },
    async (req, reply) => {
      const who = await subjectOf(req, deps, req.body?.token);
      if (!who) return unauthenticated(reply);
      const res = await deps.mfa!.enrollTotp(who);
      reply.header("cache-control", "no-store");
      return sendContent(reply, 200, { totp: { secret: res.secret, otpauth_url: res.otpauthUrl } });
    },
  );

  app.post(
    "/activityid/v1/user/mfa/totp/confirm",
    {
      schema: {
        ...common,
        summary: "Turn TOTP on with a first code",
        body: TotpConfirmBody,
        response: {
          200: Type.Object({ content: Type.Object({ mfa: Type.Object({ methods: Type.Array(Type.String()), recovery_codes: Type.Array(Type.String()) }) }), result: Result }),
          ...errorResponses(400, 401, 403, 409, 429),
        },
      },
    },
    async (req, reply) => {
      const who = await subjectOf(req, deps, req.body.token);
      if (!who) return unauthenticated(reply);
      const res = await deps.mfa!.confirmTotp({ ...who, code: req.body.code });
      return sendContent(reply, 200, { mfa: { methods: ["totp"], recovery_codes: res.recoveryCodes } });
    },
  );

  app.post(
    "/activityid/v1/user/mfa/totp/disable",
    {
      schema: {
        ...common,
        summary: "Turn TOTP off (password or code)",
        body: TotpDisableBody,
        response: { 200: Type.Object({ content: Type.Object({ mfa: Type.Object({ methods: Type.Array(Type.String()) }) }), result: Result }), ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (req, reply) => {
      const user = await userPrincipal(req, deps);
      if (!user) return sendError(reply, "UNAUTHENTICATED", { details: "Authorization: Bearer <ACCESS_TOKEN> of the user required" });
      if (!req.body.password && !req.body.code) return sendError(reply, "VALIDATION_FAILED", { violations: [{ field: "password", code: "required" }] });
      await deps.mfa!.disableTotp({
        userId: user.subject,
        password: req.body.password ?? "",
        code: req.body.code ?? "",
        caller: { clientId: user.clientId!, clientAddress: req.ip, locale: req.locale },
      });
      return sendContent(reply, 200, { mfa: { methods: [] } });
    },
  );
};
