import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "./processes.ts";
import { serverBuilt } from "./server-build.ts";
import { lastStep, outputOf, walkthroughScript, walkthroughSteps } from "./walkthrough.ts";

// Issue 14: README.md's walkthrough, run as it is written (bash, from the
// repository's root) against `npm start` on its own fresh DATA_DIR and a spare
// port, so that it cannot rot. A failing step fails the test with that step's
// commands, their output and the end of the server's log.
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const TIMEOUT_MS = 240_000;

/** A shell as a new user's: none of Gatehouse's settings, npm's or vitest's variables. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  const ours =
    /^(DATA_DIR|DATABASE_URL|REDIS_URL|REDIS_PREFIX|SMTP_URL|SMS_WEBHOOK_URL|SECRET_KEY|PUBLIC_.*|BOOTSTRAP_.*|HOST|PORT|LOG_LEVEL|NODE_OPTIONS|VITEST.*|npm_.*|TEST|TEST_PASSWORD_HASH|FORCE_COLOR|NO_COLOR)$/;
  for (const [k, v] of Object.entries(process.env)) if (!ours.test(k)) env[k] = v;
  return { ...env, ...extra };
}

/** Runs the script in its own process group (the server it starts included); kills what is left at the end. */
function run(
  file: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn("bash", [file], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid!, "SIGTERM");
    }, TIMEOUT_MS);
    child.once("exit", (code) => {
      clearTimeout(timer);
      // A step that failed with the server still up: stop it (its npm, its node).
      killGroup(child.pid!, "SIGTERM");
      resolve({ code, output, timedOut });
    });
  });
}

function killGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone
  }
}

let scratch: string | undefined;
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** The server's log: $DATA_DIR/gatehouse.log, DATA_DIR being the one directory step 0 made in the scratch directory. */
async function serverLog(dir: string): Promise<string | undefined> {
  for (const d of await readdir(dir).catch(() => [] as string[])) {
    const log = await readFile(join(dir, d, "gatehouse.log"), "utf8").catch(() => undefined);
    if (log !== undefined) return log;
  }
  return undefined;
}

describe("README.md walkthrough", () => {
  it(
    "every command works when pasted in order on a fresh DATA_DIR",
    async () => {
      const steps = walkthroughSteps(await readFile(join(ROOT, "README.md"), "utf8"));
      expect(steps.length).toBeGreaterThanOrEqual(10);
      scratch = await mkdtemp(join(tmpdir(), "gh-walkthrough-"));
      const file = join(scratch, "walkthrough.sh");
      // npm start builds dist/server when the sources changed: under the tests' build lock, not beside another test's build.
      await serverBuilt();
      await writeFile(file, walkthroughScript(steps).script);
      // mktemp -d of step 0 makes the DATA_DIR under TMPDIR: inside the scratch directory.
      const { code, output, timedOut } = await run(file, cleanEnv({ PORT: String(await freePort()), TMPDIR: scratch }));

      const last = lastStep(output);
      if (code !== 0 || last !== "done") {
        const failed = typeof last === "number" ? last : 0;
        throw new Error(
          [
            `README walkthrough: step ${failed} ${timedOut ? `did not finish within ${TIMEOUT_MS / 1000} s` : `failed (exit ${code})`}:`,
            steps[failed],
            "--- its output ---",
            outputOf(output, failed).trim() || "(none)",
            "--- the end of the server's log ---",
            (await serverLog(scratch))?.split("\n").slice(-25).join("\n") ?? "(no server log)",
          ].join("\n"),
        );
      }
      // What the walkthrough says each step answers.
      const at = (i: number) => outputOf(output, i);
      const step = (marker: string) => steps.findIndex((s) => s.startsWith(marker));
      expect(at(step("# 4."))).toMatch(/"status": 201/);
      expect(at(step("# 5."))).toMatch(/"code": "\d{6}"/);
      expect(at(step("# 6."))).toMatch(/"status": 200[\s\S]*"confirmed": true/);
      expect(at(step("# 9."))).toMatch(/"status": 200[\s\S]*"surname"[\s\S]*"value": "García"/);
      expect(at(step("# 10."))).toMatch(/"status": "active"/);
      // No SMTP_URL: the code is in the server's log too (development mode).
      const sent = /"code": "(\d{6})"/.exec(at(step("# 5.")))![1]!;
      expect(await serverLog(scratch)).toContain(`written to the outbox (no SMTP_URL): code ${sent}, link `);
    },
    TIMEOUT_MS + 30_000,
  );
});
