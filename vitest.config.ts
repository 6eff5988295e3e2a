import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

// The test processes and the servers and CLIs they spawn keep Node's compiled
// code (and its TypeScript stripping) on disk: a spawned entry point starts in
// about a third of the CPU. Node checks each file's hash, so edits are safe.
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), "gatehouse-test-node-cache");

// `npm test` runs every project of the workspace in one vitest run.
export default defineConfig({
  test: {
    projects: ["libs/*/vitest.config.ts", "apps/*/vitest.config.ts", "deploy/vitest.config.*"],
    // The suites share one PostgreSQL and one Redis; two cores are enough.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
