import { activeTracer, inSpan } from "@gatehouse/logging";
import type { Kv } from "./kv.ts";

// Redis spans when traces are on (contract section 16): one client span per
// kv operation (`redis get`, `redis batch`…), keys and values never recorded.
// Wrapped at open only when a tracer is installed.

const UNTRACED = new Set(["close", "subscribe", "ping"]);

/** The kv with a span per operation, or itself while traces are off. */
export function tracedKv(kv: Kv): Kv {
  if (!activeTracer()) return kv;
  const out: Record<string, unknown> = { kind: kv.kind, redisUrl: kv.redisUrl };
  for (const [name, value] of Object.entries(kv)) {
    if (typeof value !== "function") out[name] ??= value;
    else if (UNTRACED.has(name)) out[name] = value;
    else
      out[name] = (...args: unknown[]) =>
        inSpan(`redis ${name}`, "client", () => (value as (...a: unknown[]) => Promise<unknown>)(...args), {
          attributes: { "db.system.name": "redis", "db.operation.name": name },
        });
  }
  return out as unknown as Kv;
}
