import type { FastifyPluginAsync } from "fastify";
import { wired, type GatewayDeps } from "../../deps.ts";
import { oauthClients } from "../../oauth/applications.ts";
import { relyingPartyCors } from "../../oauth/cors.ts";
import { relyingPartyOrigins } from "../../oauth/origins.ts";
import { formBody } from "../../plugins/edge/index.ts";
import { authorizeRoutes } from "./authorize.ts";
import { deviceAuthorizationRoute } from "./device-authorization.ts";
import { devicePageRoutes } from "./device.ts";
import { discoveryRoutes } from "./discovery.ts";
import { introspectRoute } from "./introspect.ts";
import { jwksRoute } from "./jwks.ts";
import { logoutRoutes } from "./logout.ts";
import { revokeRoute } from "./revoke.ts";
import { staticRoutes } from "./static.ts";
import { tokenRoute } from "./token.ts";
import { userinfoRoutes } from "./userinfo.ts";

/** {auth_url}: the OAuth 2.0 endpoints. Form bodies are parsed only in this scope. */
export const oauthRoutes: FastifyPluginAsync<GatewayDeps> = async (app, deps) => {
  await app.register(formBody);
  // Any other body type reaches the handler, which answers invalid_request (RFC 6749, not the envelope).
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("*", { parseAs: "string" }, (_req, _body, done) => done(null, undefined));

  // One view of the applications for every endpoint, dropped by the registry's change notices.
  const clients = oauthClients(deps.registry);
  const origins = relyingPartyOrigins(deps.origins);
  const unsubscribe = await deps.registryNotices?.("application", (clientId) => {
    clients.forget(clientId);
    origins.invalidate();
  });
  if (unsubscribe) app.addHook("onClose", unsubscribe);
  const withClients = { ...deps, clients };

  // What relying parties call from browsers answers CORS (contract section 9); nothing else does.
  await app.register(async (browser) => {
    await relyingPartyCors(browser, { clients, origins });
    await browser.register(tokenRoute, deps);
    await browser.register(revokeRoute, deps);
    await browser.register(jwksRoute, deps);
    await browser.register(discoveryRoutes, deps);
    if (wired(deps, "users")) await browser.register(userinfoRoutes, deps);
  });
  await app.register(introspectRoute, deps);
  if (wired(deps, "devices")) await app.register(deviceAuthorizationRoute, { ...deps, clients });
  await app.register(logoutRoutes, withClients);
  // The hosted login signs users in through the users service, with its form tokens' key.
  if (wired(deps, "users", "hostedLoginKey")) await app.register(authorizeRoutes, { ...deps, clients });
  // The hosted pages' scripts (passkeys).
  if (wired(deps, "passkeys")) await app.register(staticRoutes);
  // /device: the person's side of the device grant, signing in through the same hosted login.
  if (wired(deps, "users", "hostedLoginKey", "devices")) await app.register(devicePageRoutes, { ...deps, clients });
};
