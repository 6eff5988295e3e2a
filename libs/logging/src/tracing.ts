// Traces (contract section 16) without a dependency here: the process's
// tracer is installed at start by @gatehouse/telemetry only when
// OTEL_EXPORTER_OTLP_ENDPOINT is set. Until then every call below is a
// no-op, so a process without tracing pays nothing but a check.

/** W3C trace context as headers or a job's field (`traceparent`, `tracestate`). */
export type TraceCarrier = Record<string, string>;

export type SpanKind = "server" | "client" | "producer" | "consumer" | "internal";

export interface StartedSpan {
  /** Runs fn with this span current (its calls, jobs and log lines belong to it). */
  run<T>(fn: () => T): T;
  /** Ends the span; an error marks it failed. */
  end(attributes?: Record<string, string | number | boolean>, error?: unknown): void;
}

export interface Tracer {
  /** A span: a child of the current one, or with `parent` of the trace that carrier names (an incoming traceparent). */
  start(
    name: string,
    kind: SpanKind,
    opts?: { parent?: TraceCarrier; attributes?: Record<string, string | number | boolean> },
  ): StartedSpan;
  /** Writes the current span's context into `carrier` (an outgoing call's headers, a job). */
  inject(carrier: TraceCarrier): void;
  /** The current trace's id, for log lines. */
  traceId(): string | undefined;
}

let installed: Tracer | undefined;

/** Installs the process's tracer (at start, once). */
export function installTracer(tracer: Tracer | undefined): void {
  installed = tracer;
}

/** The process's tracer; undefined when traces are off. */
export function activeTracer(): Tracer | undefined {
  return installed;
}

/** Runs fn in a span when traces are on, else just runs it. */
export async function inSpan<T>(
  name: string,
  kind: SpanKind,
  fn: () => Promise<T>,
  opts?: { parent?: TraceCarrier; attributes?: Record<string, string | number | boolean> },
): Promise<T> {
  if (!installed) return fn();
  const span = installed.start(name, kind, opts);
  try {
    const value = await span.run(fn);
    span.end();
    return value;
  } catch (err) {
    span.end(undefined, err);
    throw err;
  }
}
