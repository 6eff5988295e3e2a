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
      // A worker runs its files one after another in one module graph: the
      // stack's modules are imported once per worker, not once per file (about
      // half the CPU of a small file). Suites keep their state in their own
      // files and close what they open in afterAll.
      isolate: false,
    },
  };
}
