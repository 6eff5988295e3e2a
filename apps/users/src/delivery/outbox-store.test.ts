import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate, openDb, type Db } from "@gatehouse/db";
import { memoryQueue, type ConfirmationJob, type DeliveryProcessor, type WorkerHandle } from "@gatehouse/jobs";
import { createLogger } from "@gatehouse/logging";
import { dropTestDatabases, freshDatabase, pgliteDataDir } from "@gatehouse/testing";
import { usersMigrations } from "../index.ts";
import { deliveryOutboxStore } from "./outbox-store.ts";

const logger = createLogger("outbox-test", "silent");
const fast = { backoff: { type: "exponential" as const, delay: 20, jitter: 0 }, attempts: 3 };

const job = (): ConfirmationJob => ({
  deliveryId: randomUUID().replaceAll("-", ""),
  userId: "u-1",
  channel: "email",
  to: "ana@example.com",
  locale: "en",
  purpose: "register",
  sealedSecrets: "sealed",
});

async function until(cond: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.each([
  ["PostgreSQL", async () => openDb({ databaseUrl: (await freshDatabase()).url })],
  ["PGlite", async () => openDb({ dataDir: await pgliteDataDir() })],
] as const)("the in-process delivery queue kept in users.delivery_outbox on %s", (_name, open) => {
  let db: Db;
  const workers: WorkerHandle[] = [];
  beforeAll(async () => {
    db = await open();
    await migrate(db, usersMigrations);
  });
  afterAll(async () => {
    for (const w of workers) await w.close();
    await db.close();
    if (db.kind === "pg") await dropTestDatabases();
  });
  const rows = async () =>
    (
      await db.query<{ delivery_id: string; attempts_made: number; failed: boolean }>(
        "SELECT delivery_id, attempts_made, failed_at IS NOT NULL AS failed FROM users.delivery_outbox ORDER BY enqueued_at",
      )
    ).rows;

  it("writes the job in the producer's transaction: a rollback leaves nothing, a commit a row until it is sent", async () => {
    await db.exec("DELETE FROM users.delivery_outbox");
    const queue = memoryQueue({ jobOptions: fast, store: deliveryOutboxStore(db) });
    const kept = job();
    const rolledBack = job();
    await db.tx((tx) => queue.enqueue(kept, tx));
    await db
      .tx(async (tx) => {
        await queue.enqueue(rolledBack, tx);
        throw new Error("the change failed");
      })
      .catch(() => undefined);
    expect((await rows()).map((r) => r.delivery_id)).toEqual([kept.deliveryId]);
    const sent: string[] = [];
    workers.push(queue.process({ processor: async (j) => void sent.push(j.deliveryId), logger }));
    await until(async () => (await rows()).length === 0, "sent job deleted");
    // The rolled-back one ran too (the worker's commit check drops it in production); it left no row either way.
    expect(sent).toContain(kept.deliveryId);
    await queue.close();
  });

  it("a process that died with jobs queued: the next one drains them, each once", async () => {
    await db.exec("DELETE FROM users.delivery_outbox");
    const crashed = memoryQueue({ jobOptions: fast, store: deliveryOutboxStore(db) });
    const pending = [job(), job(), job()];
    for (const j of pending) await db.tx((tx) => crashed.enqueue(j, tx));
    // No worker ever ran them: that process is gone (its memory with it).

    const next = memoryQueue({ jobOptions: fast, store: deliveryOutboxStore(db) });
    const sent: string[] = [];
    workers.push(next.process({ processor: async (j) => void sent.push(j.deliveryId), logger }));
    await until(async () => sent.length === 3 && (await rows()).length === 0, "drained");
    expect(sent.sort()).toEqual(pending.map((j) => j.deliveryId).sort());
    await new Promise((r) => setTimeout(r, 200));
    expect(sent).toHaveLength(3);
    await next.close();
  });

  it("remembers attempts, and keeps a dead letter out of the next drain", async () => {
    await db.exec("DELETE FROM users.delivery_outbox");
    const queue = memoryQueue({ jobOptions: fast, store: deliveryOutboxStore(db) });
    const failing = job();
    await db.tx((tx) => queue.enqueue(failing, tx));
    const processor: DeliveryProcessor = async () => {
      throw new Error("SMTP down");
    };
    workers.push(queue.process({ processor, logger }));
    await until(async () => (await rows())[0]?.failed === true, "dead letter");
    expect(await rows()).toEqual([{ delivery_id: failing.deliveryId, attempts_made: 3, failed: true }]);
    expect(await deliveryOutboxStore(db).pending()).toEqual([]);
    await queue.close();
  });
});
