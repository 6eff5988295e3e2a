import formbody from "@fastify/formbody";
import type { FastifyPluginAsync } from "fastify";
import type { GatewayDeps } from "../../deps.ts";
import { discoveryRoutes } from "./discovery.ts";
import { introspectRoute } from "./introspect.ts";
import { jwksRoute } from "./jwks.ts";
import { revokeRoute } from "./revoke.ts";
import { tokenRoute } from "./token.ts";

/** {auth_url}: the OAuth 2.0 endpoints. Form bodies are parsed only in this scope. */
export const oauthRoutes: FastifyPluginAsync<GatewayDeps> = async (app, deps) => {
  await app.register(formbody);
  // Any other body type reaches the handler, which answers invalid_request (RFC 6749, not the envelope).
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("*", { parseAs: "string" }, (_req, _body, done) => done(null, undefined));
  await app.register(tokenRoute, deps);
  await app.register(introspectRoute, deps);
  await app.register(revokeRoute, deps);
  await app.register(jwksRoute, deps);
  await app.register(discoveryRoutes, deps);
};
