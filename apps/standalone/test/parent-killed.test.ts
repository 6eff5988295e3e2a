import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAppWithToken, registerUser } from "./http-users.ts";
import { startSmtpServer, waitFor } from "./mail-sinks.ts";
import { freePort, runEntry, serverEnv, startFlags, stopChild, waitReady } from "./processes.ts";
import { serverBuilt, SERVER_DIST } from "./server-build.ts";
import { seedEmbeddedDataDir } from "./stack-helpers.ts";

/** Running (a zombie, killed and not yet reaped by its new parent, is not). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !["Z", "X"].includes(stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3));
  } catch {
    return false;
  }
};

// `npm start` is npm plus the server, its child: `kill -9 <npm's pid>` cannot
// be forwarded. Contract section 10 (queued deliveries survive kill -9, one
// owner per DATA_DIR): the server goes with its parent, so a start right after
// takes the data directory and the port over and sends what was queued.
describe("npm (the server's parent) killed with -9", () => {
  it("the server stops too; a restart at once owns DATA_DIR and delivers the queued message", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "gh-parent-"));
    await seedEmbeddedDataDir(dataDir);
    const [port, deadSmtp] = [await freePort(), await freePort()];
    // Nothing listens on deadSmtp: the message stays queued.
    const spawned = serverEnv(
      port,
      { DATA_DIR: dataDir, DATABASE_URL: "", REDIS_URL: "" },
      { SMTP_URL: `smtp://127.0.0.1:${deadSmtp}` },
    );
    const gw = spawned.gw;
    const env = { ...process.env, ...spawned.env };
    await serverBuilt();
    // A parent that stays (as npm does), not one that execs the server.
    const npmLike = spawn(
      "sh",
      ["-c", '"$0" "$@"; exit $?', process.execPath, ...startFlags(env), join(SERVER_DIST, "main.js")],
      {
        env,
        stdio: "ignore",
      },
    );
    await waitReady(`${gw}/readyz`, Object.assign(npmLike, { output: () => "" }));
    const server = (JSON.parse(await readFile(join(dataDir, "gatehouse.lock"), "utf8")) as { pid: number }).pid;
    expect(server).not.toBe(npmLike.pid);
    const app = await createAppWithToken(gw);
    const email = `orphan.${Date.now()}@example.com`;
    expect((await registerUser(gw, app, email, "correct horse battery")).status).toBe(201);

    npmLike.kill("SIGKILL");
    const smtp = await startSmtpServer();
    const again = await runEntry("main", [], { ...env, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` } as Record<
      string,
      string
    >);
    try {
      const until = Date.now() + 5000;
      while (alive(server) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(alive(server)).toBe(false);
      await waitReady(`${gw}/readyz`, again);
      const mail = await waitFor(
        () => smtp.mails.find((m) => m.to.includes(email)),
        `the queued mail to ${email}`,
        60_000,
      );
      expect(mail.text).toMatch(/\/activityid\/v1\/user\/confirm\?token=/);
      expect(await stopChild(again)).toBe(0);
    } finally {
      if (again.exitCode === null) await stopChild(again);
      if (alive(server)) process.kill(server, "SIGKILL");
      await smtp.close();
    }
  }, 180_000);
});
