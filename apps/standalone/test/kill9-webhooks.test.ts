import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dropTestDatabases, freshDatabase, redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { createAppWithToken, registerUser, tokenRequest } from "./http-users.ts";
import { freePort, runEntry, serverEnv, stopChild, waitReady } from "./processes.ts";
import { OPERATOR, seedEmbeddedDataDir } from "./stack-helpers.ts";
import { startReceiver } from "./webhook-receiver.ts";

const USERS = 40;
const PASSWORD = "correct horse battery";

async function adminToken(gw: string): Promise<string> {
  const res = await tokenRequest(gw, OPERATOR.id, OPERATOR.secret, {
    grant_type: "client_credentials",
    scope: "admin",
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Every user's id by email (GET /admin/v1/users). */
async function usersByEmail(gw: string, token: string): Promise<Map<string, string>> {
  const res = await fetch(`${gw}/admin/v1/users?limit=200`, { headers: { authorization: `Bearer ${token}` } });
  const items = ((await res.json()) as { content: { items: { id: number; ids: { email?: { value: string } } }[] } })
    .content.items;
  return new Map(items.map((u) => [u.ids.email?.value ?? "", String(u.id)]));
}

// Contract section 14: "every change that was answered 2xx is delivered even
// across kill -9". npm start is killed while registrations are answered; after
// the restart every user that exists has its user.created delivered, verified
// with standardwebhooks (at least once: a repeat keeps its webhook-id).
describe.each([
  ["the embedded default", false],
  ["PostgreSQL + Redis", true],
])("npm start on %s killed with -9 while changes are answered", (_name, services) => {
  it("delivers the event of every change that committed, after the restart", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "gh-kill9-hooks-"));
    const stores: Record<string, string> = services
      ? {
          DATA_DIR: dataDir,
          DATABASE_URL: (await freshDatabase()).url,
          REDIS_URL: redisTestUrl(),
          REDIS_PREFIX: uniquePrefix(),
        }
      : { DATA_DIR: dataDir, DATABASE_URL: "", REDIS_URL: "" };
    if (!services) await seedEmbeddedDataDir(dataDir);
    const { gw, env } = serverEnv(await freePort(), stores, {
      WEBHOOK_ALLOW_PRIVATE: "true",
      WEBHOOK_RETRY_BASE_MS: "200",
    });
    const receiver = await startReceiver();
    let server = await runEntry("main", [], env);
    try {
      await waitReady(`${gw}/readyz`, server);
      const app = await createAppWithToken(gw);
      const token = await adminToken(gw);
      const hook = await fetch(`${gw}/admin/v1/webhooks`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ url: receiver.url, events: ["user.created"] }),
      });
      expect(hook.status).toBe(201);
      receiver.secrets.push(((await hook.json()) as { content: { secret: string } }).content.secret);

      const emails = Array.from({ length: USERS }, (_, i) => `h${i}.${Date.now()}@example.com`);
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
      const deliveredBefore = receiver.got.length;

      server = await runEntry("main", [], env);
      await waitReady(`${gw}/readyz`, server);
      const answered = emails.filter((e) => outcomes.get(e) === 201);
      // The answers lost with the process: registering again tells whether the first one committed (409).
      for (const email of emails.filter((e) => outcomes.get(e) !== 201))
        expect([201, 409], email).toContain((await registerUser(gw, app, email, PASSWORD)).status);
      const ids = await usersByEmail(gw, await adminToken(gw));
      for (const email of answered) expect(ids.has(email), email).toBe(true);
      const wanted = emails.map((e) => ids.get(e)!);
      await receiver.until(
        (got) => wanted.every((id) => got.some((g) => g.body.data.user.id === id)),
        "a user.created for every user",
        90_000,
      );
      for (const g of receiver.got) expect(g.verifiedWith).toBe(0);
      const perUser = wanted.map(
        (id) => new Set(receiver.got.filter((g) => g.body.data.user.id === id).map((g) => g.id)),
      );
      for (const ids of perUser) expect(ids.size).toBe(1); // one event per change; a repeat keeps its id
      console.info(
        `kill -9 (${_name}): ${answered.length} of ${USERS} registrations answered 201 before the kill; ` +
          `${deliveredBefore} events delivered before it, ${receiver.got.length} deliveries in all (${USERS} events)`,
      );
      expect(await stopChild(server)).toBe(0);
    } finally {
      if (server.exitCode === null) await stopChild(server);
      await receiver.close();
      if (services) await dropTestDatabases();
    }
  }, 240_000);
});
