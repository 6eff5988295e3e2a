import { context, propagation, SpanKind as OtelKind, SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import { NodeSDK } from "@opentelemetry/sdk-node";
import { installTracer, type SpanKind, type StartedSpan, type TraceCarrier, type Tracer } from "@gatehouse/logging";

// OpenTelemetry (contract section 16): with OTEL_EXPORTER_OTLP_ENDPOINT set,
// the process exports its spans over OTLP/HTTP (OTEL_EXPORTER_OTLP_PROTOCOL:
// http/protobuf by default, http/json), W3C trace context in and out. The SDK
// reads the standard OTEL_* variables itself. Spans are made where a request
// crosses a process (HTTP in, RPC out and in, a job queued and run); nothing
// patches modules. Without the endpoint this module is never loaded.

const KINDS: Record<SpanKind, OtelKind> = {
  server: OtelKind.SERVER,
  client: OtelKind.CLIENT,
  producer: OtelKind.PRODUCER,
  consumer: OtelKind.CONSUMER,
  internal: OtelKind.INTERNAL,
};

const tracer = () => trace.getTracer("gatehouse");

function started(span: Span): StartedSpan {
  const ctx = trace.setSpan(context.active(), span);
  return {
    run: (fn) => context.with(ctx, fn),
    end(attributes, error) {
      if (attributes) span.setAttributes(attributes);
      if (error !== undefined) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : undefined });
      }
      span.end();
    },
  };
}

/** The Tracer of @gatehouse/logging over the OpenTelemetry API. */
export const otelTracer: Tracer = {
  start(name, kind, opts) {
    const parent = opts?.parent ? propagation.extract(context.active(), opts.parent) : context.active();
    return started(tracer().startSpan(name, { kind: KINDS[kind], attributes: opts?.attributes }, parent));
  },
  inject(carrier: TraceCarrier) {
    propagation.inject(context.active(), carrier);
  },
  traceId() {
    const span = trace.getActiveSpan();
    return span?.isRecording() || span?.spanContext().traceFlags ? span.spanContext().traceId : undefined;
  },
};

/** Whether the environment asks for traces. */
export const tracesWanted = (env: NodeJS.ProcessEnv = process.env) =>
  Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) &&
  env.OTEL_SDK_DISABLED !== "true" &&
  env.OTEL_TRACES_EXPORTER !== "none";

/**
 * Starts the SDK for `service` (service.name `gatehouse-<service>` unless
 * OTEL_SERVICE_NAME) and installs its tracer; resolves to the shutdown that
 * flushes what is batched. Traces only: logs stay pino's, metrics /metrics'.
 */
export function startTelemetry(service: string): () => Promise<void> {
  process.env.OTEL_LOGS_EXPORTER ??= "none";
  process.env.OTEL_METRICS_EXPORTER ??= "none";
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ? undefined : `gatehouse-${service}`,
    instrumentations: [],
  });
  sdk.start();
  installTracer(otelTracer);
  return async () => {
    installTracer(undefined);
    await sdk.shutdown();
  };
}
