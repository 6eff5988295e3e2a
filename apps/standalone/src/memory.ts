import { performance } from "node:perf_hooks";

/** How long after ready the start-up's garbage is collected: past the last start-up work (first Redis connects, bootstraps). */
const AFTER_READY_MS = 500;
/** How often the event loop's use is sampled to see a busy period end. */
const IDLE_CHECK_MS = 2000;
/** Event-loop utilisation over one check above which the process counts as busy, below which as idle. */
const BUSY_ELU = 0.2;
const IDLE_ELU = 0.02;

/** One full GC that shrinks the young generation and compacts old space (V8's `last-resort` flavour). */
function reduceHeap(gc: NonNullable<typeof globalThis.gc>): void {
  gc({ type: "major", execution: "sync", flavor: "last-resort" });
}

/**
 * A server's heap gives memory back when it goes idle. Start-up (module
 * loading, migrations, schema compilation) and any busy period grow V8's
 * young generation to its limit and old space's capacity, and V8 does not
 * give that back on its own while the process idles (~20 MB after start-up,
 * ~50 MB after a load burst: docs/performance.md). So: one memory-reducing
 * GC once ready, and one each time a busy period ends (the event loop was
 * busy, then ~idle for a whole check); never while busy. It needs `gc`,
 * which scripts/run-server.sh exposes (`--expose-gc`); elsewhere (tests) it
 * does nothing.
 */
export function releaseIdleMemory(): void {
  const gc = globalThis.gc;
  if (!gc) return;
  setTimeout(() => reduceHeap(gc), AFTER_READY_MS).unref();
  let last = performance.eventLoopUtilization();
  let busySinceLastGc = false;
  setInterval(() => {
    const now = performance.eventLoopUtilization();
    const use = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (use > BUSY_ELU) busySinceLastGc = true;
    else if (use < IDLE_ELU && busySinceLastGc) {
      busySinceLastGc = false;
      reduceHeap(gc);
    }
  }, IDLE_CHECK_MS).unref();
}
