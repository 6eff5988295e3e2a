import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import Type from "typebox";
import { errorFacts } from "@gatehouse/errors";
import type { GatewayDeps } from "../../deps.ts";
import { sendContent } from "../../http/envelope.ts";
import { userIdJson } from "../../http/user-json.ts";
import { noBody } from "../../http/admin-call.ts";
import { requireBearer, type BearerRule } from "../../http/bearer-guard.ts";
import { userToken } from "../../http/user-token.ts";
import { errorResponses, Result } from "../../schemas/common.ts";

/**
 * POST {base_url}/activityid/v1/user/logout: ends the session of the user's
 * access token (its `sid`): the refresh family is revoked and the session's
 * access tokens are refused at once (revocation mark). connect_state moves
 * to `notConnected`.
 */
/** A user's token of a login session (its sid names what to end). */
const sessionToken: BearerRule = (p, req) => {
  const user = userToken(p, req);
  if (user !== true) return user;
  return (
    typeof p.claims.sid === "string" || {
      error: "invalid_token",
      description: "the ACCESS_TOKEN of a login session is required",
    }
  );
};

export const logoutRoute: FastifyPluginAsyncTypebox<GatewayDeps> = async (app, deps) => {
  app.post(
    "/activityid/v1/user/logout",
    {
      // No body: a bare POST declaring JSON is not malformed.
      onRequest: [noBody, requireBearer(deps.verifyAccessToken, sessionToken)],
      schema: {
        summary: "Log the user out (ends the session and its refresh tokens)",
        tags: ["users"],
        security: [{ bearer: [] }],
        response: {
          200: Type.Object({
            content: Type.Object({
              login_status: Type.Object({
                uid: Type.Union([Type.Integer(), Type.String()]),
                connect_state: Type.String(),
              }),
            }),
            result: Result,
          }),
          ...errorResponses(401),
        },
      },
    },
    async (req, reply) => {
      const user = req.principal!;
      try {
        await deps.auth.revokeUserSession({ sessionId: String(user.claims.sid) });
      } catch (err) {
        // Ended meanwhile (a parallel logout): the outcome is the same.
        if (errorFacts(err).reason !== "SESSION_NOT_FOUND") throw err;
      }
      reply.header("cache-control", "no-store");
      return sendContent(reply, 200, {
        login_status: { uid: userIdJson(user.subject), connect_state: "notConnected" },
      });
    },
  );
};
