import type { FastifyPluginAsync } from "fastify";
import type { GatewayDeps } from "../../deps.ts";
import { formBody } from "../../plugins/edge/index.ts";
import { authorizeRoutes } from "./authorize.ts";
import { discoveryRoutes } from "./discovery.ts";
import { introspectRoute } from "./introspect.ts";
import { jwksRoute } from "./jwks.ts";
import { logoutRoutes } from "./logout.ts";
import { revokeRoute } from "./revoke.ts";
import { tokenRoute } from "./token.ts";
import { userinfoRoutes } from "./userinfo.ts";

/** {auth_url}: the OAuth 2.0 endpoints. Form bodies are parsed only in this scope. */
export const oauthRoutes: FastifyPluginAsync<GatewayDeps> = async (app, deps) => {
  await app.register(formBody);
  // Any other body type reaches the handler, which answers invalid_request (RFC 6749, not the envelope).
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("*", { parseAs: "string" }, (_req, _body, done) => done(null, undefined));
  await app.register(tokenRoute, deps);
  await app.register(introspectRoute, deps);
  await app.register(revokeRoute, deps);
  await app.register(jwksRoute, deps);
  await app.register(discoveryRoutes, deps);
  await app.register(logoutRoutes, deps);
  if (deps.users) await app.register(userinfoRoutes, deps);
  if (deps.users && deps.hostedLoginKey) await app.register(authorizeRoutes, { ...deps, hostedLoginKey: deps.hostedLoginKey });
};
