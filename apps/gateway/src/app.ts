import { randomUUID } from "node:crypto";
import Fastify, { LogController, type FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { sanitizeRequestId, withRequestId, type Logger } from "@gatehouse/logging";
import { wired, type GatewayDeps } from "./deps.ts";
import { lazySerializers } from "./http/lazy-serializers.ts";
import { consoleRoutes } from "./plugins/console.ts";
import { drainConnections } from "./plugins/drain.ts";
import { edge, edgeServerOptions } from "./plugins/edge/index.ts";
import { errorHandling } from "./plugins/errors.ts";
import { openapi } from "./plugins/openapi.ts";
import { faviconRoutes } from "./plugins/favicon.ts";
import { hostedStaticRoutes } from "./plugins/hosted-static.ts";
import { probeRoutes } from "./plugins/probes.ts";
import { requestSpans } from "./plugins/tracing.ts";
import { requestContext } from "./plugins/request-context.ts";
import { securityHeaders } from "./plugins/security-headers.ts";
import { typeboxValidatorFactory, validation } from "./plugins/validation.ts";
import { activateRoutes } from "./routes/activityid/activate.ts";
import { activityIdRoutes } from "./routes/activityid/index.ts";
import { termsRoutes } from "./routes/activityid/terms.ts";
import { adminRoutes } from "./routes/admin/index.ts";
import { appsRoutes } from "./routes/graph/apps.ts";
import { oauthRoutes } from "./routes/oauth/index.ts";

/** The public REST gateway: the spec's JSON contract in front of the services' RPC. */
export async function createGateway(deps: GatewayDeps, logger: Logger): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: deps.config.bodyLimitBytes,
    // Request ids come from a trusted proxy when well formed, else are made here; every RPC hop carries them.
    genReqId: (req) => sanitizeRequestId(req.headers["x-request-id"] as string | undefined) ?? randomUUID(),
    // Per-request access logs cost more than they tell on the token hot path; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    // No per-request child logger: the logger's mixin already stamps each line with the request id.
    childLoggerFactory: (logger) => logger,
    // X-Forwarded-For only from the proxies listed in TRUSTED_PROXIES (the throttles key on req.ip).
    trustProxy: deps.config.trustedProxies?.length ? deps.config.trustedProxies : false,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 256 },
    // Closing (SIGTERM, after the drain's delay): a request already on a kept-alive connection is served, not a 503.
    return503OnClosing: false,
    // Fastify's default is 72 s; Node and undici clients drop an idle connection at the Keep-Alive hint
    // minus 2 s, so with 4 s they do it before a draining replica (SHUTDOWN_DELAY_S, 5 s) closes theirs.
    keepAliveTimeout: (deps.config.httpKeepAliveSeconds ?? 4) * 1000,
    forceCloseConnections: "idle",
    // secure-json-parse: a `__proto__` or `constructor.prototype` key is a 400, never a polluted object.
    onProtoPoisoning: "error",
    onConstructorPoisoning: "error",
    // Timeouts and the errors raised before routing (plugins/edge).
    ...edgeServerOptions(deps.config.requestTimeoutSeconds ?? 20),
    // Response serialisers compiled on first use (http/lazy-serializers.ts); requests
    // validated by TypeBox, so Fastify never loads its ajv validator compiler (its own ajv copy).
    schemaController: {
      compilersFactory: { buildSerializer: lazySerializers, buildValidator: typeboxValidatorFactory },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // JSON routes take JSON only: a text/plain body is a 415, not a string to validate.
  app.removeContentTypeParser("text/plain");
  // Every handler runs with the request id in async context, so RPC clients send it on.
  app.addHook("onRequest", (req, _reply, done) => withRequestId(req.id, done));
  await app.register(requestSpans);
  await app.register(requestContext);
  await app.register(validation);
  await app.register(errorHandling);
  await app.register(edge);
  await app.register(drainConnections, { drain: deps.drain });
  await app.register(securityHeaders, deps.config);
  await app.register(openapi, { serverUrl: deps.config.publicBaseUrl });
  await app.register(probeRoutes, deps);
  await app.register(faviconRoutes);
  await app.register(hostedStaticRoutes);
  await app.register(appsRoutes, deps);
  await app.register(adminRoutes, deps);
  if (wired(deps, "users")) {
    await app.register(activityIdRoutes, deps);
    // The terms and activation pages post HTML forms: outside /activityid's JSON-only Accept hook
    // (hooks reach every child route).
    await app.register(termsRoutes, deps);
    await app.register(activateRoutes, deps);
  }
  await app.register(oauthRoutes, deps);
  const c = deps.config;
  await app.register(consoleRoutes, {
    dir: deps.consoleDir,
    origins: [c.publicBaseUrl, c.publicGraphUrl, c.publicAuthUrl],
  });
  return app as unknown as FastifyInstance;
}
