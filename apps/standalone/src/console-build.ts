import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Logger } from "@gatehouse/logging";

// The console (apps/console) is a React + Vite app the gateway serves as
// static files from its dist/. npm start builds it once when dist is missing
// or older than the sources; CI runs `npm run build:console` before the tests.

// `new URL(…, import.meta.url)`: the server bundle (scripts/build-server.mjs) rewrites it to the same folder.
const CONSOLE = fileURLToPath(new URL("../../console", import.meta.url));
/** Where the gateway serves /console from. */
export const CONSOLE_DIST = join(CONSOLE, "dist");

/** The newest modification time under `path` (files only), 0 when absent. */
function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((n) => newest(join(path, n))));
}

/** True when dist/index.html is missing or older than a source of the console. */
export function consoleStale(root = CONSOLE): boolean {
  const built = join(root, "dist", "index.html");
  if (!existsSync(built)) return true;
  const sources = Math.max(
    newest(join(root, "src")),
    ...["index.html", "vite.config.ts", "package.json"].map((f) => newest(join(root, f))),
  );
  return sources > statSync(built).mtimeMs;
}

/**
 * Builds the console when stale (a few seconds); a failed build is logged and
 * start goes on: /console then says how to build it. Skipped when the console's
 * sources are not there (an install without apps/console). The build goes to a
 * directory of its own, then replaces dist/ at once: two processes starting
 * together never serve a half-written build.
 */
export function ensureConsoleBuilt(logger: Pick<Logger, "info" | "warn">, root = CONSOLE): void {
  if (!existsSync(join(root, "src")) || !consoleStale(root)) return;
  logger.info("building the console (apps/console, once; later starts reuse apps/console/dist)");
  const vite = join(dirname(root), "..", "node_modules", ".bin", "vite");
  const out = join(root, `dist.building-${process.pid}`);
  const run = spawnSync(
    existsSync(vite) ? vite : "vite",
    ["build", "--logLevel", "error", "--outDir", out, "--emptyOutDir"],
    { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
  );
  if (run.status !== 0) {
    rmSync(out, { recursive: true, force: true });
    logger.warn(
      { status: run.status, error: (run.stderr || run.error?.message || "").slice(0, 2000) },
      "the console did not build: /console says how to build it (npm run build:console)",
    );
    return;
  }
  try {
    rmSync(join(root, "dist"), { recursive: true, force: true });
    renameSync(out, join(root, "dist"));
  } catch {
    // Another process put its build there first: the same sources, keep it.
    rmSync(out, { recursive: true, force: true });
  }
}
