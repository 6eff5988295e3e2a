import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import Type from "typebox";
import type { Wired } from "../../deps.ts";
import { requireBearer } from "../../http/bearer-guard.ts";
import { userToken } from "../../http/user-token.ts";
import { errorResponses } from "../../schemas/common.ts";

/**
 * DELETE {base_url}/activityid/v1/user/identities/{provider} (contract
 * section 11): the user (their ACCESS_TOKEN) unlinks their account at a
 * provider; 204, or 404 identity_not_linked. Code sign-in still works for a
 * user without a password; `newPassword` sets one.
 */
export const identitiesRoute: FastifyPluginAsyncTypebox<Wired<"users">> = async (app, deps) => {
  app.delete(
    "/activityid/v1/user/identities/:provider",
    {
      onRequest: requireBearer(deps.verifyAccessToken, userToken),
      schema: {
        summary: "Unlink the user's account at an identity provider",
        tags: ["users"],
        security: [{ bearer: [] }],
        params: Type.Object({ provider: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 204: Type.Null({ description: "Unlinked" }), ...errorResponses(401, 404) },
      },
    },
    async (req, reply) => {
      await deps.users.unlinkIdentity({ userId: req.principal!.subject, provider: req.params.provider });
      return reply.code(204).send(null);
    },
  );
};
