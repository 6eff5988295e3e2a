import { collectDefaultMetrics, Histogram, Registry } from "prom-client";

/** One Prometheus registry per process, served at /metrics. */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

export const rpcDuration = new Histogram({
  name: "gatehouse_rpc_duration_seconds",
  help: "Connect RPC handling time by service, method and code",
  labelNames: ["service", "method", "code"] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [metricsRegistry],
});
