import type { Logger } from "@gatehouse/logging";

// Its own module, apart from ./shutdown.ts: the start:services and replicas
// launchers watch their parent too, and must not load the RPC stack
// (@gatehouse/rpc: Connect, protobuf, ioredis, jose; ~50 MB of RSS) to do it.

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
