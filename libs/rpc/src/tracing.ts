import { ConnectError, type Interceptor } from "@connectrpc/connect";
import { activeTracer, inSpan, type TraceCarrier } from "@gatehouse/logging";

// RPC spans with the W3C trace context over Connect (contract section 16):
// a client span per call whose context goes out in `traceparent`, and a
// server span that continues it. No-ops while traces are off.

const TRACE_HEADERS = ["traceparent", "tracestate"];

const attributes = (req: { service: { typeName: string }; method: { name: string } }) => ({
  "rpc.system": "connect_rpc",
  "rpc.service": req.service.typeName,
  "rpc.method": req.method.name,
});

/** The caller's side: a client span, its context sent in the request's headers. */
export function traceClientInterceptor(): Interceptor {
  return (next) => async (req) => {
    const tracer = activeTracer();
    if (!tracer) return next(req);
    const span = tracer.start(`${req.service.typeName}/${req.method.name}`, "client", { attributes: attributes(req) });
    return span.run(async () => {
      const carrier: TraceCarrier = {};
      tracer.inject(carrier);
      for (const [k, v] of Object.entries(carrier)) req.header.set(k, v);
      try {
        const res = await next(req);
        span.end();
        return res;
      } catch (err) {
        span.end({ "rpc.connect_rpc.error_code": ConnectError.from(err).code }, err);
        throw err;
      }
    });
  };
}

/** The service's side: a server span continuing the caller's trace (first, so every line it logs carries it). */
export function traceServerInterceptor(): Interceptor {
  return (next) => (req) => {
    if (!activeTracer()) return next(req);
    const parent: TraceCarrier = {};
    for (const h of TRACE_HEADERS) {
      const v = req.header.get(h);
      if (v) parent[h] = v;
    }
    return inSpan(`${req.service.typeName}/${req.method.name}`, "server", () => next(req), {
      parent,
      attributes: attributes(req),
    });
  };
}
