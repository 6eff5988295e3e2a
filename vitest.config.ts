import { defineConfig } from "vitest/config";

// `npm test` runs every project of the workspace in one vitest run.
export default defineConfig({
  test: {
    projects: ["libs/*/vitest.config.ts", "apps/*/vitest.config.ts", "deploy/vitest.config.*"],
    // The suites share one PostgreSQL and one Redis; two cores are enough.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
