import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import Type from "typebox";
import type { Wired } from "../../deps.ts";
import { appToken, callerOf } from "../../http/app-token.ts";
import { requireBearer } from "../../http/bearer-guard.ts";
import { sendContent, sendError } from "../../http/envelope.ts";
import { errorResponses, ScQuery } from "../../schemas/common.ts";
import { AccessCodeRequest, UserHeaders } from "../../schemas/user.ts";

const Accepted = Type.Object({
  content: Type.Object({ objectType: Type.Literal("access_code"), expires_in: Type.Integer() }),
  result: Type.Object({ status: Type.Integer(), elapsed: Type.Integer() }),
});

/**
 * POST {base_url}/activityid/v1/user/access/code (contract section 8): sends
 * a one-time sign-in code to the email or phone given, to log in with
 * `object.code` at `/user/access`. 202 whether or not a user holds the value,
 * with the same body; the users service sends after answering. Over the
 * limit of codes for that value: 429 with Retry-After.
 */
export const accessCodeRoute: FastifyPluginAsyncTypebox<Wired<"users">> = async (app, deps) => {
  app.post(
    "/activityid/v1/user/access/code",
    {
      onRequest: requireBearer(deps.verifyAccessToken, appToken),
      schema: {
        summary: "Send a one-time sign-in code (code sign-in)",
        tags: ["users"],
        security: [{ bearer: [] }],
        headers: UserHeaders,
        querystring: ScQuery,
        body: AccessCodeRequest,
        response: { 202: Accepted, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (req, reply) => {
      const principal = req.principal!;
      const { email, phone_number: phone } = req.body.ids;
      if (!email === !phone) {
        return sendError(reply, "VALIDATION_FAILED", {
          violations: [{ field: email ? "ids.phone_number" : "ids.email", code: email ? "not_allowed" : "required" }],
        });
      }
      const res = await deps.users.requestAccessCode({
        caller: callerOf(req, principal.clientId!, "unknown"),
        key: email ? "email" : "phone_number",
        value: (email ?? phone)!.value,
      });
      return sendContent(reply, 202, { objectType: "access_code", expires_in: Number(res.expiresIn) });
    },
  );
};
