import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dropTestDatabases, freshDatabase, redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { createAppWithToken, registerUser } from "./http-users.ts";
import { startSmtpServer, waitFor } from "./mail-sinks.ts";
import { freePort, runEntry, serverEnv, stopChild, waitReady } from "./processes.ts";
import { seedEmbeddedDataDir } from "./stack-helpers.ts";

const USERS = 60;
const PASSWORD = "correct horse battery";

async function outboxMessages(dataDir: string): Promise<{ files: string[]; byRecipient: Map<string, number> }> {
  const dir = join(dataDir, "outbox");
  const files = await readdir(dir).catch(() => [] as string[]);
  const byRecipient = new Map<string, number>();
  for (const f of files.filter((n) => n.endsWith(".json"))) {
    const { to } = JSON.parse(await readFile(join(dir, f), "utf8")) as { to: string };
    byRecipient.set(to, (byRecipient.get(to) ?? 0) + 1);
  }
  return { files, byRecipient };
}

// Contract section 10: queued deliveries survive kill -9. `npm start` (the
// embedded default) keeps its delivery queue in the users schema's outbox
// table, written in the registration's transaction; the next start drains it.
describe("npm start killed with -9 while registrations are queued", () => {
  it("every committed registration's message arrives exactly once after the restart, and none for a rolled-back one", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "gh-kill9-"));
    await seedEmbeddedDataDir(dataDir);
    const { gw, env } = serverEnv(await freePort(), { DATA_DIR: dataDir, DATABASE_URL: "", REDIS_URL: "" });
    let server = await runEntry("main", [], env);
    await waitReady(`${gw}/readyz`, server);
    const app = await createAppWithToken(gw);
    const emails = Array.from({ length: USERS }, (_, i) => `k${i}.${Date.now()}@example.com`);

    // Every registration at once; kill -9 once a third of them answered, the rest still in flight.
    const outcomes = new Map<string, number | "lost">();
    const inFlight = emails.map((email) =>
      registerUser(gw, app, email, PASSWORD).then(
        (r) => void outcomes.set(email, r.status),
        () => void outcomes.set(email, "lost"),
      ),
    );
    while ([...outcomes.values()].filter((s) => s === 201).length < USERS / 3)
      await new Promise((r) => setTimeout(r, 5));
    server.kill("SIGKILL");
    await Promise.all(inFlight);
    const before = await outboxMessages(dataDir);

    server = await runEntry("main", [], env);
    try {
      await waitReady(`${gw}/readyz`, server);
      // An answer lost with the process: the registration may or may not have committed. Registering
      // again tells: 409, it did (its message must come from the drained queue); 201, it had not (the
      // first attempt must have left no message, the second sends one). Every address: one message.
      const committedBeforeKill = new Set<string>();
      for (const email of emails) {
        const status = outcomes.get(email);
        if (status === 201) committedBeforeKill.add(email);
        else {
          const again = (await registerUser(gw, app, email, PASSWORD)).status;
          expect([201, 409], email).toContain(again);
          if (again === 409) committedBeforeKill.add(email);
        }
      }
      const until = Date.now() + 60_000;
      let after = await outboxMessages(dataDir);
      while (Date.now() < until && emails.some((e) => !after.byRecipient.has(e))) {
        await new Promise((r) => setTimeout(r, 200));
        after = await outboxMessages(dataDir);
      }
      const lost = [...outcomes.values()].filter((s) => s === "lost").length;
      console.info(
        `kill -9: ${committedBeforeKill.size} of ${USERS} registrations committed before the kill (${lost} answers lost with the process); ` +
          `outbox: ${before.byRecipient.size} messages before the restart, ${after.byRecipient.size} after (one per address: ${USERS})`,
      );
      expect(committedBeforeKill.size).toBeGreaterThanOrEqual(USERS / 3);
      for (const email of emails) expect(after.byRecipient.get(email) ?? 0, email).toBe(1);
      expect(await stopChild(server)).toBe(0);
      // Listed once stopped: a write links its file a moment before it removes its temporary name.
      expect((await outboxMessages(dataDir)).files.filter((f) => f.endsWith(".tmp"))).toEqual([]);
    } finally {
      if (server.exitCode === null) await stopChild(server);
    }
  }, 240_000);
});

// The same words for the BullMQ mode (PostgreSQL + Redis): the jobs live in
// Redis; a process killed while they wait for their retry (the SMTP server is
// down) leaves them there, and the next start sends each once.
describe("npm start on PostgreSQL + Redis killed with -9 while deliveries wait for SMTP", () => {
  it("each queued message arrives once after the restart", async () => {
    const [port, deadSmtp] = [await freePort(), await freePort()];
    const stores = {
      DATA_DIR: await mkdtemp(join(tmpdir(), "gh-kill9-bull-")),
      DATABASE_URL: (await freshDatabase()).url,
      REDIS_URL: redisTestUrl(),
      REDIS_PREFIX: uniquePrefix(),
    };
    const { gw, env } = serverEnv(port, stores, { SMTP_URL: `smtp://127.0.0.1:${deadSmtp}` });
    let server = await runEntry("main", [], env);
    const smtp = await startSmtpServer();
    try {
      await waitReady(`${gw}/readyz`, server);
      const app = await createAppWithToken(gw);
      const emails = Array.from({ length: 5 }, (_, i) => `b${i}.${Date.now()}@example.com`);
      for (const email of emails) expect((await registerUser(gw, app, email, PASSWORD)).status).toBe(201);
      server.kill("SIGKILL");
      await new Promise((r) => server.once("exit", r));

      server = await runEntry("main", [], { ...env, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
      await waitReady(`${gw}/readyz`, server);
      for (const email of emails)
        await waitFor(() => smtp.mails.find((m) => m.to.includes(email)), `the mail to ${email}`, 60_000);
      await new Promise((r) => setTimeout(r, 1000));
      for (const email of emails)
        expect(
          smtp.mails.filter((m) => m.to.includes(email)),
          email,
        ).toHaveLength(1);
      expect(await stopChild(server)).toBe(0);
    } finally {
      if (server.exitCode === null) await stopChild(server);
      await smtp.close();
      await dropTestDatabases();
    }
  }, 180_000);
});
