import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";

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

// Contract section 17: what abuse protection refused or could not check, for operators to watch (docs/operations.md).

/** The breached-password service did not answer usably; the password was accepted (fail open). */
export const pwnedCheckFailures = new Counter({
  name: "gatehouse_pwned_check_failures_total",
  help: "Breached-password range checks that failed or timed out (the password was not refused)",
  registers: [metricsRegistry],
});

/** Text messages not sent because an hour's budget was spent, by the limit that was reached. */
export const smsRefused = new Counter({
  name: "gatehouse_sms_refused_total",
  help: "Text messages refused by the SMS limits, by limit (global, prefix, application)",
  labelNames: ["limit"] as const,
  registers: [metricsRegistry],
});

/** Hosted-page submissions refused for a missing, wrong, expired or reused ALTCHA solution. */
export const captchaRefused = new Counter({
  name: "gatehouse_captcha_refused_total",
  help: "Hosted-page submissions refused by the ALTCHA check, by reason (missing, invalid, replayed)",
  labelNames: ["reason"] as const,
  registers: [metricsRegistry],
});
