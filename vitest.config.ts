import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";
import { sharedTestConfig } from "./vitest.shared.ts";
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

// `npm test` runs the suites of every package in one vitest run, as two
// projects: every Node suite of apps/, libs/ and deploy/ together, and the
// console's (React, its own plugins and the default isolation). One Node
// project, not one per package: a worker (isolate: false) is reused only for
// files of its own project, so with a project per package the small packages
// ran one after another at the end of the run, each with new workers; in one
// project the longest files of every package start first and the short ones
// fill the end. Each package keeps its own vitest.config.ts for running it alone.
const node = sharedTestConfig(import.meta.dirname);
export default defineConfig({
  test: {
    projects: [
      {
        ...node,
        test: {
          ...node.test,
          name: "node",
          include: [
            "apps/*/src/**/*.test.ts",
            "apps/*/test/**/*.test.ts",
            "libs/*/src/**/*.test.ts",
            "libs/*/test/**/*.test.ts",
            "deploy/*.test.ts",
          ],
          exclude: ["**/node_modules/**", "apps/console/**"],
        },
      },
      "apps/console/vitest.config.ts",
    ],
    // The pool's size; each project needs the same value too (vitest.shared.ts).
    fileParallelism: true,
    maxWorkers: 4,
    sequence: { sequencer: ProjectsLongestFirst },
  },
});
