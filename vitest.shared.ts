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
    },
  };
}
