import type { FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { activeTracer, type StartedSpan, type TraceCarrier } from "@gatehouse/logging";

const spans = new WeakMap<FastifyRequest, StartedSpan>();

/**
 * A server span per request when traces are on (contract section 16): it
 * continues an incoming W3C `traceparent`, and the handler runs in it, so
 * the RPCs it makes, the jobs it queues and its log lines join the trace.
 */
export const requestSpans = fp(async (app) => {
  if (!activeTracer()) return;
  app.addHook("onRequest", (req, _reply, done) => {
    const tracer = activeTracer();
    if (!tracer) return done();
    const parent: TraceCarrier = {};
    for (const h of ["traceparent", "tracestate"]) {
      const v = req.headers[h];
      if (typeof v === "string") parent[h] = v;
    }
    const span = tracer.start(`${req.method} ${req.routeOptions.url ?? "unmatched"}`, "server", {
      parent,
      attributes: { "http.request.method": req.method, "url.path": req.url.split("?")[0]! },
    });
    spans.set(req, span);
    span.run(done);
  });
  app.addHook("onResponse", async (req, reply) => {
    spans.get(req)?.end({ "http.response.status_code": reply.statusCode });
  });
});
