import type { FastifyPluginAsync } from "fastify";
import { wired, type GatewayDeps } from "../../deps.ts";
import { operatorScopes } from "../../http/admin-call.ts";
import { requireBearer } from "../../http/bearer-guard.ts";
import { adminAppsRoutes } from "./apps.ts";
import { adminAssertionsRoutes } from "./assertions.ts";
import { adminAuditRoutes } from "./audit.ts";
import { adminCatalogRoutes } from "./catalogs.ts";
import { adminEntrypointRoutes } from "./entrypoints.ts";
import { adminIdentityProviderRoutes } from "./identity-providers.ts";
import { adminUsersBulkRoutes } from "./users-bulk.ts";
import { adminUsersRoutes } from "./users.ts";
import { adminWebhookRoutes } from "./webhooks.ts";

/**
 * /admin/v1 (contract sections 6 and 7): the operators' API. Every route
 * needs an operator's token with admin:read (GET) or admin:write (the rest);
 * each resource is served by the service that owns it.
 */
export const adminRoutes: FastifyPluginAsync<GatewayDeps> = async (app, deps) => {
  // The operator's token and scope, before the body (RFC 6750 challenges); the services check the forwarded token again.
  app.addHook("onRequest", requireBearer(deps.verifyAccessToken, operatorScopes));
  // Operators' answers hold personal data and secrets: never kept by a cache on the way.
  app.addHook("onSend", async (_req, reply) => {
    reply.header("cache-control", "no-store");
  });
  await app.register(adminAppsRoutes, deps);
  await app.register(adminEntrypointRoutes, deps);
  await app.register(adminCatalogRoutes, deps);
  await app.register(adminAssertionsRoutes, deps);
  if (wired(deps, "identityProviders")) await app.register(adminIdentityProviderRoutes, deps);
  await app.register(adminUsersRoutes, deps);
  await app.register(adminUsersBulkRoutes, deps);
  await app.register(adminAuditRoutes, deps);
  await app.register(adminWebhookRoutes, deps);
};
