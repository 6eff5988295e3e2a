import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import Type from "typebox";
import type { GatewayDeps } from "../../deps.ts";
import { asCaller, bearerToken } from "../../http/bearer.ts";
import { sendContent, sendError } from "../../http/envelope.ts";
import { errorResponses, Result } from "../../schemas/common.ts";

/** /admin/v1/apps: operator operations on applications (contract sections 6 and 7). */
export const adminAppsRoutes: FastifyPluginAsyncTypebox<GatewayDeps> = async (app, deps) => {
  app.get(
    "/admin/v1/apps/:client_id/password",
    {
      schema: {
        summary: "Reveal an application's password (audited)",
        tags: ["admin"],
        security: [{ bearer: [] }],
        params: Type.Object({ client_id: Type.String({ maxLength: 128 }) }),
        response: { 200: Type.Object({ content: Type.Object({ id: Type.String(), password: Type.String() }), result: Result }), ...errorResponses(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const token = bearerToken(req);
      if (!token) return sendError(reply, "UNAUTHENTICATED", { details: "operator token required" });
      const res = await deps.registry.revealClientSecret({ clientId: req.params.client_id, reason: "admin api" }, asCaller(token));
      reply.header("cache-control", "no-store");
      return sendContent(reply, 200, { id: req.params.client_id, password: res.clientSecret });
    },
  );
};
