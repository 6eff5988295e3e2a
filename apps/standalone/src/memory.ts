/** How long after ready the start-up's garbage is collected: past the last start-up work (first Redis connects, bootstraps). */
const AFTER_READY_MS = 500;

/**
 * Once a server is ready, one memory-reducing full GC: start-up (module
 * loading, migrations, protobuf and schema compilation) grows V8's young
 * generation to its limit and leaves old space fragmented, and V8 does not
 * give that back on its own while the process idles. This returns ~20 MB per
 * process (docs/performance.md). It needs `gc`, which scripts/start.sh and the
 * image expose (`--expose-gc`); elsewhere (tests) it does nothing.
 */
export function releaseStartupMemory(): void {
  const gc = globalThis.gc;
  if (!gc) return;
  setTimeout(() => gc({ type: "major", execution: "sync", flavor: "last-resort" }), AFTER_READY_MS).unref();
}
