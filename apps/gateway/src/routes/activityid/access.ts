import type { JsonObject } from "@bufbuild/protobuf";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyRequest } from "fastify";
import type { Wired } from "../../deps.ts";
import { appToken, callerOf } from "../../http/app-token.ts";
import { requireBearer } from "../../http/bearer-guard.ts";
import { actorIdMismatch, bodyViolations, membersOf } from "../../http/body-checks.ts";
import { sendError } from "../../http/envelope.ts";
import { TermsRequired } from "../../schemas/assertions.ts";
import { ErrorEnvelopeWithUrl, errorResponses } from "../../schemas/common.ts";
import { MfaRequiredEnvelope } from "../../schemas/mfa.ts";
import { LoginEnvelope, LoginQuery, UserContent, UserContentIncomplete, UserHeaders } from "../../schemas/user.ts";
import { sendLoginOutcome } from "./login-outcomes.ts";

/**
 * One identifier and one credential: the spec's email and password, or the
 * phone, or a one-time code, or a passkey (which names its user: `ids` may be
 * left out); `actor.id` is the token's application.
 */
function loginBodyChecks(req: FastifyRequest) {
  const object = membersOf(membersOf(req.body)?.object);
  const ids = membersOf(object?.ids);
  const passkey = object?.passkey !== undefined;
  return [
    ...actorIdMismatch(req.body, req.principal?.clientId),
    ...(object && !passkey && (!ids || (ids.email === undefined && ids.phone_number === undefined))
      ? [{ field: "object.ids.email", code: "required" }]
      : []),
    ...(object && !passkey && object.password === undefined && object.code === undefined
      ? [{ field: "object.password", code: "required" }]
      : []),
  ];
}

/**
 * POST {base_url}/activityid/v1/user/access: login, with the password or a
 * one-time code (`object.code`, code sign-in). The gateway checks the
 * envelope (400, by the schema) and the app token (401); the users service's
 * login flow the rest, in the contract's order (apps/users/src/login/flow.ts),
 * and its outcome is rendered by the login's outcome table (412, 428, 451,
 * 200 or 206). Errors (403, 429) go through the gateway's error handler.
 */
export const accessRoute: FastifyPluginAsyncTypebox<Wired<"users">> = async (app, deps) => {
  app.post(
    "/activityid/v1/user/access",
    {
      onRequest: requireBearer(deps.verifyAccessToken, appToken),
      config: { bodyChecks: loginBodyChecks },
      schema: {
        summary: "Log a user in",
        tags: ["users"],
        security: [{ bearer: [] }],
        headers: UserHeaders,
        querystring: LoginQuery,
        body: LoginEnvelope,
        response: {
          200: UserContent,
          206: UserContentIncomplete,
          ...errorResponses(400, 401, 403, 429),
          412: ErrorEnvelopeWithUrl,
          451: TermsRequired,
          428: MfaRequiredEnvelope,
        },
      },
    },
    async (req, reply) => {
      const principal = req.principal!;
      const { object } = req.body;
      const violations = bodyViolations(req);
      if (violations.length) return sendError(reply, "VALIDATION_FAILED", { violations });
      const res = await deps.users.loginUser({
        caller: callerOf(req, principal.clientId!, req.body.source.id),
        email: object.ids?.email?.value ?? "",
        phoneNumber: object.ids?.phone_number?.value ?? "",
        password: object.password ?? "",
        code: object.code ?? "",
        datas: object.datas as JsonObject | undefined,
        fca: req.query.fca === true,
        // Answers to legal assertions, recorded once the password is right (they may clear a 451).
        assertions: object.assertions as JsonObject | undefined,
        ...(object.passkey
          ? { passkey: { token: object.passkey.token, credential: object.passkey.credential as JsonObject } }
          : {}),
      });
      return sendLoginOutcome({ reply, publicBaseUrl: deps.config.publicBaseUrl }, res.outcome);
    },
  );
};
