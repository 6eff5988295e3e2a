import { randomBytes } from "node:crypto";
import { mkdtemp, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAdminJourney } from "./http-admin.ts";
import { createAppWithToken, expectUserJourney } from "./http-users.ts";
import { freePort, runEntry, stopChild, waitReady, type Spawned } from "./processes.ts";
import { OPERATOR, seedEmbeddedDataDir } from "./stack-helpers.ts";

// start:services with no DATABASE_URL and no REDIS_URL: each process keeps its
// own PGlite under DATA_DIR/<service>, and with no shared queue the users
// process runs the confirmation worker itself (no fifth process).
const noServers = { DATABASE_URL: "", REDIS_URL: "" };
let child: Spawned;
let gw: string;
let dataDir: string;
let ports: Record<"registry" | "auth" | "users" | "worker", number>;

beforeAll(async () => {
  const port = await freePort();
  ports = { registry: await freePort(), auth: await freePort(), users: await freePort(), worker: await freePort() };
  gw = `http://127.0.0.1:${port}`;
  dataDir = await mkdtemp(join(tmpdir(), "gh-svc-embedded-"));
  for (const service of ["registry", "auth", "users"]) await seedEmbeddedDataDir(join(dataDir, service));
  child = await runEntry("services", [], {
    ...noServers,
    PORT: String(port),
    HOST: "127.0.0.1",
    REGISTRY_PORT: String(ports.registry),
    AUTH_PORT: String(ports.auth),
    USERS_PORT: String(ports.users),
    WORKER_PORT: String(ports.worker),
    PUBLIC_URL: gw,
    SECRET_KEY: randomBytes(32).toString("base64url"),
    DATA_DIR: dataDir,
    BOOTSTRAP_OPERATOR_CLIENT_ID: OPERATOR.id,
    BOOTSTRAP_OPERATOR_CLIENT_SECRET: OPERATOR.secret,
    LOG_LEVEL: "info",
  });
  await waitReady(`${gw}/readyz`, child, 90_000);
}, 120_000);

afterAll(async () => {
  if (child) expect(await stopChild(child)).toBe(0);
});

describe("start:services on the embedded drivers", () => {
  it("runs four processes, each on its own PGlite, and says why there is no worker process", async () => {
    expect(child.output()).toContain("no separate confirmation-worker process");
    expect((await readdir(dataDir)).sort()).toEqual(expect.arrayContaining(["auth", "registry", "users"]));
    // The tests seed each directory's PGlite cluster (stack-helpers.ts): each process holds its own directory's lock.
    for (const service of ["auth", "registry", "users"])
      expect(await readdir(join(dataDir, service))).toContain("gatehouse.lock");
    expect((await fetch(`http://127.0.0.1:${ports.users}/readyz`)).status).toBe(200);
    await expect(fetch(`http://127.0.0.1:${ports.worker}/healthz`)).rejects.toThrow();
  });

  it("registers, delivers from the users process's own worker, confirms by link and logs in", async () => {
    const app = await createAppWithToken(gw);
    await expectUserJourney(gw, dataDir, app);
  }, 60_000);

  it("a CLI on the running services' DATA_DIR, or a second registry, refuses at once (exit 1, one line)", async () => {
    for (const args of [
      ["bootstrap-operator", "--client-id", "late-op"],
      ["serve", "registry"],
    ]) {
      const other = await runEntry("cli", args, {
        ...noServers,
        DATA_DIR: dataDir,
        REGISTRY_PORT: "0",
        LOG_LEVEL: "silent",
      });
      expect(await new Promise<number | null>((r) => other.once("exit", r))).toBe(1);
      const lines = other.output().trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^DATA_DIR ${dataDir}/registry is in use by another Gatehouse process \\(pid \\d+, "cli.js serve registry", since `,
        ),
      );
    }
  });

  it("serves the admin API across processes, each on its own PGlite", async () => {
    const app = await createAppWithToken(gw, "admin");
    await expectAdminJourney(gw, dataDir, app, { sharedState: false });
  }, 60_000);

  it("refuses `serve confirmation-worker` without REDIS_URL (exit 2)", async () => {
    const alone = await runEntry("cli", ["serve", "confirmation-worker"], {
      ...noServers,
      DATA_DIR: dataDir,
      LOG_LEVEL: "silent",
    });
    const code = await new Promise<number | null>((r) => alone.once("exit", r));
    expect(code).toBe(2);
    expect(alone.output()).toContain("needs REDIS_URL");
  });
});
