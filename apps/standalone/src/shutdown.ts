import type { Logger } from "@gatehouse/logging";

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

/** SIGTERM/SIGINT: stop taking requests, let in-flight ones finish, close stores, exit. */
export function onShutdown(logger: Logger, close: () => Promise<void>) {
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(1), 20_000);
    force.unref();
    close()
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
