import type { Server } from "node:http";
import type { Logger } from "@gatehouse/logging";
import { DRAIN_GRACE_MS, type Drain } from "@gatehouse/rpc";
import { exitWithParent } from "./parent-watch.ts";

/**
 * SIGTERM (contract section 16): /readyz answers 503 at once while the
 * process keeps serving for SHUTDOWN_DELAY_S (the balancer's health checks
 * see it go), then `close` stops accepting, lets requests, RPCs and jobs in
 * flight finish (up to 25 s) and closes the stores; exit 0. SIGINT (Ctrl-C
 * in a terminal, no balancer to tell) skips the delay.
 */
export function onShutdown(logger: Logger, close: () => Promise<void>, drain?: Drain, delaySeconds = 0) {
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    drain?.start();
    const delayMs = signal === "SIGTERM" ? delaySeconds * 1000 : 0;
    logger.info({ signal, delaySeconds: delayMs / 1000 }, "shutting down: not ready, serving until the delay ends");
    const force = setTimeout(
      () => {
        logger.error("shutdown took too long: exiting");
        process.exit(1);
      },
      delayMs + DRAIN_GRACE_MS + 5_000,
    );
    force.unref();
    new Promise((r) => setTimeout(r, delayMs))
      .then(() => logger.info("stopped accepting; finishing what is in flight"))
      .then(close)
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        logger.error({ err }, "shutdown failed");
        process.exit(1);
      });
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
  exitWithParent(logger);
}

/** Fastify's close (stop accepting, answer what is in flight), cutting the connections still open after `graceMs`. */
export async function closeWithin(app: { close(): Promise<void>; server: Server }, graceMs: number) {
  const cut = setTimeout(() => app.server.closeAllConnections(), graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(cut);
  }
}
