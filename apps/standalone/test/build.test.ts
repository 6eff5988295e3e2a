import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, waitReady } from "./processes.ts";

// npm start runs a bundle of the sources (scripts/build.mjs): the files the
// sources find beside themselves (migrations, page templates, the CLI that
// start:services spawns) and the workspace's own versions of npm packages
// must still be found from the bundle.
const root = fileURLToPath(new URL("../../../", import.meta.url));
let outDir: string;
let dataDir: string;

beforeAll(async () => {
  // dist/ exists only once something was built (a fresh clone has none).
  await mkdir(join(root, "dist"), { recursive: true });
  outDir = await mkdtemp(join(root, "dist", "test-build-"));
  dataDir = await mkdtemp(join(tmpdir(), "gh-build-"));
  // The plain JavaScript build script npm start runs (scripts/build.mjs calls it).
  const { buildServer } = (await import(pathToFileURL(join(root, "scripts/build-server.mjs")).href)) as {
    buildServer(root: string, outDir: string): Promise<void>;
  };
  await buildServer(root, outDir);
}, 120_000);

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

describe("the built server", () => {
  it("runs the CLI (commander from apps/standalone's own node_modules)", () => {
    const r = spawnSync(process.execPath, [join(outDir, "cli.js"), "--help"], { encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Usage: gatehouse <command>");
  });

  it("starts embedded, applies the migrations, renders a hosted page from its templates and serves its scripts", async () => {
    const port = await freePort();
    const { spawn } = await import("node:child_process");
    const child = spawn(process.execPath, ["--liftoff-only", join(outDir, "main.js")], {
      env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    try {
      await waitReady(`http://127.0.0.1:${port}/readyz`, Object.assign(child, { output: () => out }), 90_000);
      const page = await fetch(`http://127.0.0.1:${port}/oauth2/logout?client_id=a&client_id=b`);
      expect(page.status).toBe(400);
      expect(page.headers.get("content-type")).toContain("text/html");
      expect(await page.text()).toContain("<html");
      // The passkey scripts: ours beside the templates, @simplewebauthn/browser's bundle from node_modules.
      for (const name of ["passkeys.js", "simplewebauthn-browser.js"]) {
        const script = await fetch(`http://127.0.0.1:${port}/oauth2/static/${name}`);
        expect(script.status, name).toBe(200);
        expect(script.headers.get("content-type")).toContain("text/javascript");
      }
      const discovery = await fetch(`http://127.0.0.1:${port}/.well-known/openid-configuration`);
      expect(discovery.status).toBe(200);
      expect(((await discovery.json()) as { token_endpoint: string }).token_endpoint).toMatch(/\/oauth2\/token$/);
      // The ALTCHA widget's files come from the `altcha` package, found from the bundle.
      const widget = await fetch(`http://127.0.0.1:${port}/hosted/static/altcha/sha.js`);
      expect(widget.status).toBe(200);
      expect(widget.headers.get("content-type")).toContain("javascript");
    } finally {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
  }, 120_000);
});
