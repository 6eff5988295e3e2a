import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import pino, { type Logger } from "pino";
import { activeTracer } from "./tracing.ts";

export type { Logger } from "pino";
export * from "./tracing.ts";

/** Header that carries the request id from the gateway through every RPC hop. */
export const REQUEST_ID_HEADER = "x-request-id";

interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs fn with a request id that every log line inside it carries. */
export function withRequestId<T>(requestId: string | undefined, fn: () => T): T {
  return storage.run({ requestId: sanitizeRequestId(requestId) ?? randomUUID() }, fn);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** Accepts a caller's request id only when it is short and printable. */
export function sanitizeRequestId(id: string | null | undefined): string | undefined {
  return id && /^[A-Za-z0-9._:-]{1,128}$/.test(id) ? id : undefined;
}

/**
 * The logger of one process, named by `process` ("gatehouse" for npm start,
 * the service's name for `serve <svc>`). Services add `service` with
 * `logger.child({ service })`: the base holds no `service`, so no line carries
 * the key twice (pino does not merge duplicate keys of a child's bindings).
 */
export function createLogger(
  name: string,
  level = process.env.LOG_LEVEL ?? "info",
  opts: { stream?: "stdout" | "stderr" } = {},
): Logger {
  // A command-line tool keeps stdout for its answer: its log goes to stderr (written synchronously, so nothing is lost at exit).
  const destination = opts.stream === "stderr" ? pino.destination({ fd: 2, sync: true }) : undefined;
  return pino(
    {
      level,
      base: { process: name },
      mixin() {
        const id = currentRequestId();
        // With traces on, each line of a request carries its trace (contract section 16).
        const traceId = activeTracer()?.traceId();
        if (traceId) return id ? { requestId: id, trace_id: traceId } : { trace_id: traceId };
        return id ? { requestId: id } : {};
      },
      redact: {
        paths: ["password", "*.password", "client_secret", "*.client_secret", "authorization", "*.authorization"],
        censor: "[redacted]",
      },
    },
    destination,
  );
}
