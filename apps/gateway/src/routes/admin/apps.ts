import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import Type from "typebox";
import { ADMIN_SCOPE } from "@gatehouse/rpc";
import type { GatewayDeps } from "../../deps.ts";
import { asCaller } from "../../http/bearer.ts";
import { anyScope, requireBearer } from "../../http/bearer-guard.ts";
import { sendContent } from "../../http/envelope.ts";
import { errorResponses, Result } from "../../schemas/common.ts";

const AppSettings = Type.Object(
  {
    whitelist: Type.Optional(Type.Array(Type.String({ maxLength: 2048 }), { maxItems: 1000 })),
    defaultCallback: Type.Optional(Type.String({ maxLength: 2048 })),
    mfa: Type.Optional(Type.String({ maxLength: 16 })),
  },
  { additionalProperties: false, $id: "AppSettings" },
);
const AppSettingsOut = Type.Object({ id: Type.String(), whitelist: Type.Array(Type.String()), defaultCallback: Type.String(), mfa: Type.String() });

/** /admin/v1/apps: operator operations on applications (contract sections 6 and 7). */
export const adminAppsRoutes: FastifyPluginAsyncTypebox<GatewayDeps> = async (app, deps) => {
  // The operator's token is checked here first (401/403 before the body), then forwarded: the registry checks it again.
  const operator = requireBearer(deps.verifyAccessToken, anyScope(ADMIN_SCOPE));
  // PATCH: the context.url whitelist, the default callback ("" = the hosted page) and the MFA policy; each only when sent.
  app.patch(
    "/admin/v1/apps/:client_id",
    {
      onRequest: operator,
      schema: {
        summary: "Change an application's whitelist, default callback and MFA policy (audited)",
        tags: ["admin"],
        security: [{ bearer: [] }],
        params: Type.Object({ client_id: Type.String({ maxLength: 128 }) }),
        body: AppSettings,
        response: { 200: Type.Object({ content: AppSettingsOut, result: Result }), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const res = await deps.registry.updateApplicationSettings(
        {
          clientId: req.params.client_id,
          whitelist: req.body.whitelist ? { values: req.body.whitelist } : undefined,
          defaultCallback: req.body.defaultCallback,
          mfa: req.body.mfa,
        },
        asCaller(req.principal!.token),
      );
      const s = res.settings!;
      return sendContent(reply, 200, { id: req.params.client_id, whitelist: s.whitelist, defaultCallback: s.defaultCallback, mfa: s.mfa });
    },
  );

  app.get(
    "/admin/v1/apps/:client_id/password",
    {
      onRequest: operator,
      schema: {
        summary: "Reveal an application's password (audited)",
        tags: ["admin"],
        security: [{ bearer: [] }],
        params: Type.Object({ client_id: Type.String({ maxLength: 128 }) }),
        response: { 200: Type.Object({ content: Type.Object({ id: Type.String(), password: Type.String() }), result: Result }), ...errorResponses(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const res = await deps.registry.revealClientSecret({ clientId: req.params.client_id, reason: "admin api" }, asCaller(req.principal!.token));
      reply.header("cache-control", "no-store");
      return sendContent(reply, 200, { id: req.params.client_id, password: res.clientSecret });
    },
  );
};
