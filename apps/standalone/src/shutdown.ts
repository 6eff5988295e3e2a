import type { Server } from "node:http";
import type { Logger } from "@gatehouse/logging";
import { DRAIN_GRACE_MS, type Drain } from "@gatehouse/rpc";

// Read when this module loads, at the process's start: the process that started it (npm, the start:services launcher).
const parentAtStart = process.ppid;
const PARENT_CHECK_MS = 250;

/**
 * Stops this process at once when the process that started it is gone:
 * `kill -9 <npm's pid>` (or the launcher's) cannot be forwarded, and an
 * orphaned server would keep the port and the data directory, so the next
 * start would refuse. It exits as the -9 meant (what is queued survives, as
 * after any kill -9). A process started by init or as a container's first
 * process has no such parent to watch.
 */
export function exitWithParent(logger: Logger, onGone: () => void = () => process.exit(1)) {
  if (parentAtStart <= 1) return;
  const timer = setInterval(() => {
    if (process.ppid === parentAtStart) return;
    clearInterval(timer);
    logger.warn({ parent: parentAtStart }, "the process that started this one is gone: stopping at once");
    onGone();
  }, PARENT_CHECK_MS);
  timer.unref();
}

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
