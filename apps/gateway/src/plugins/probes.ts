import type { FastifyPluginAsync } from "fastify";
import { DRAINING_STATUS, metricsRegistry } from "@gatehouse/rpc";
import type { GatewayDeps } from "../deps.ts";

/** /healthz (process up), /readyz (stores and services reachable), /metrics (Prometheus). */
export const probeRoutes: FastifyPluginAsync<GatewayDeps> = async (app, deps) => {
  const hide = { hide: true };
  app.get("/healthz", { schema: hide, logLevel: "warn" }, async () => ({ status: "ok" }));
  app.get("/readyz", { schema: hide, logLevel: "warn" }, async (_req, reply) => {
    const draining = deps.drain?.draining ?? false;
    const ok = !draining && (await deps.ready().catch(() => false));
    // Like every 503 (contract section 10): when to ask again.
    if (!ok) reply.header("retry-after", "1");
    return reply.code(ok ? 200 : 503).send({ status: ok ? "ready" : draining ? DRAINING_STATUS : "unavailable" });
  });
  app.get("/metrics", { schema: hide, logLevel: "warn" }, async (_req, reply) =>
    reply.type(metricsRegistry.contentType).send(await metricsRegistry.metrics()),
  );
};
