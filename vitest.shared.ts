import { basename } from "node:path";

// Shared vitest settings for every project: our packages resolve to their
// TypeScript sources through the "@gatehouse/source" export condition.
export function sharedTestConfig(dir: string) {
  return {
    resolve: { conditions: ["@gatehouse/source"] },
    ssr: { resolve: { conditions: ["@gatehouse/source"] } },
    test: {
      name: basename(dir),
      root: dir,
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      testTimeout: 60_000,
      hookTimeout: 120_000,
      environment: "node" as const,
      // expect.poll's own default is 1 s: a page's script (the console's React
      // app) can take longer than that to answer on two cores busy with the
      // rest of the suite. A poll still fails when its condition never holds.
      expect: { poll: { timeout: 15_000 } },
      // Per project: vitest 5 does not pass the root's maxWorkers down, and its
      // default on two cores is one worker (the suites then ran one by one).
      // Every suite has its own database or PGlite, Redis prefix, ports and
      // data directory; three workers on two cores overlap the waits on
      // PostgreSQL, spawned servers and Chromium with CPU work.
      maxWorkers: 4,
      // A worker runs file after file of its project and keeps the modules it
      // imported (the stack's code is evaluated once per worker, not once per
      // file); with maxWorkers above one vitest still spreads the files over
      // three workers. The files keep their state in their own scope (each
      // suite's database, prefix, ports, servers) and none of them mocks
      // modules or stubs globals (the console, which does, is its own
      // project and keeps the default isolation).
      isolate: false,
    },
  };
}
