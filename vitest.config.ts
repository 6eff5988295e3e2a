import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";
import { ProjectsLongestFirst } from "./vitest.sequencer.ts";

// The test processes and the servers and CLIs they spawn keep Node's compiled
// code (and its TypeScript stripping) on disk: a spawned entry point starts in
// about a third of the CPU. Node checks each file's hash, so edits are safe.
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), "gatehouse-test-node-cache");

// Passwords hashed where the hash is not under test cost a fraction of a
// millisecond instead of ~15 ms (libs/config/src/password-hash.ts: honoured
// only with NODE_ENV=test, which vitest sets). The tests about hashing pass
// the production parameters themselves.
process.env.TEST_PASSWORD_HASH ??= "cheap";

// `npm test` runs every project of the workspace in one vitest run.
export default defineConfig({
  test: {
    projects: ["libs/*/vitest.config.ts", "apps/*/vitest.config.ts", "deploy/vitest.config.*"],
    // The pool's size; each project needs the same value too (vitest.shared.ts).
    fileParallelism: true,
    maxWorkers: 4,
    sequence: { sequencer: ProjectsLongestFirst },
  },
});
