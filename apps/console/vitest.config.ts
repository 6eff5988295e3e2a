import react from "@vitejs/plugin-react";
import { defineProject } from "vitest/config";

// Unit and component tests of the console: pure logic and react-dom/server
// rendering in node (no DOM emulation needed). Chromium runs the built app
// against a real stack in apps/standalone/test/console-*.test.ts.
export default defineProject({
  plugins: [react()],
  test: {
    name: "console",
    root: import.meta.dirname,
    include: ["src/**/*.test.ts", "src/**/*.test.tsx"],
    environment: "node",
  },
});
