import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { JsonObject } from "@bufbuild/protobuf";
import type { Wired } from "../../deps.ts";
import { appToken, callerOf } from "../../http/app-token.ts";
import { requireBearer } from "../../http/bearer-guard.ts";
import { sendContent, sendError } from "../../http/envelope.ts";
import { sessionToJson, userToJson } from "../../http/user-json.ts";
import { errorResponses, ScQuery } from "../../schemas/common.ts";
import { RegisterEnvelope, UserContent, UserHeaders } from "../../schemas/user.ts";

/** POST {base_url}/activityid/v1/user/register (contract section 5). */
export const registerRoute: FastifyPluginAsyncTypebox<Wired<"users">> = async (app, deps) => {
  app.post(
    "/activityid/v1/user/register",
    {
      onRequest: requireBearer(deps.verifyAccessToken, appToken),
      schema: {
        summary: "Register a user through an entry point",
        tags: ["users"],
        security: [{ bearer: [] }],
        headers: UserHeaders,
        querystring: ScQuery,
        body: RegisterEnvelope,
        response: { 201: UserContent, ...errorResponses(400, 401, 403, 409, 502) },
      },
    },
    async (req, reply) => {
      const principal = req.principal!;
      if (req.body.actor.id !== principal.clientId) {
        return sendError(reply, "VALIDATION_FAILED", { violations: [{ field: "actor.id", code: "invalid_value" }] });
      }
      const res = await deps.users.registerUser({
        caller: callerOf(req, principal.clientId!, req.body.source.id),
        object: req.body.object as unknown as JsonObject,
      });
      const content: Record<string, unknown> = { user: userToJson(res.user!) };
      if (res.session) content.session_info = sessionToJson(res.session, res.user!.id);
      return sendContent(reply, 201, content);
    },
  );
};
