import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDb, type Db } from "@gatehouse/db";
import { dropTestDatabases, freshDatabase, pgliteDataDir } from "@gatehouse/testing";
import { bullmqQueue, gatedProcessor, type StillWanted } from "../src/index.ts";
import { capturedLogger, fastJobOptions, makeJob, sleep, testKeys, waitFor } from "./helpers.ts";
import { makeHarness, type Harness } from "./harness.ts";

// The producer enqueues inside its transaction, before commit. The worker asks
// the database (through isStillWanted) whether the change is visible before sending.

const GRACE_MS = 1000; // how long an invisible change may still be an uncommitted one
let db: Db;
const keys = testKeys();

async function useDatabase(kind: "pg" | "pglite") {
  db =
    kind === "pg"
      ? await openDb({ databaseUrl: (await freshDatabase()).url })
      : await openDb({ dataDir: await pgliteDataDir() });
  await db.exec(
    "CREATE TABLE pending_change (delivery_id text PRIMARY KEY, superseded boolean NOT NULL DEFAULT false)",
  );
}
afterAll(async () => {
  await dropTestDatabases();
});

const isStillWanted: StillWanted = async (deliveryId, { enqueuedAt }) => {
  const { rows } = await db.query<{ superseded: boolean }>(
    "SELECT superseded FROM pending_change WHERE delivery_id = $1",
    [deliveryId],
  );
  if (rows[0]) return rows[0].superseded ? "drop" : "send";
  return Date.now() - enqueuedAt < GRACE_MS ? "wait" : "drop";
};

// PGlite (embedded default) has one connection: the worker's check simply waits for the commit.
describe.each([
  ["bullmq", "pg"],
  ["memory", "pg"],
  ["memory", "pglite"],
] as const)("enqueue before commit (%s queue, %s)", (kind, dbKind) => {
  beforeAll(() => useDatabase(dbKind));
  afterAll(() => db.close());
  let h: Harness;
  const sent: string[] = [];
  const verdicts = new Map<string, string[]>();
  const log = capturedLogger();
  afterEach(async () => h?.cleanup());

  function startWorker() {
    h = makeHarness(kind, log.logger, { ...fastJobOptions, attempts: 8 });
    const recording: StillWanted = async (id, info) => {
      const v = await isStillWanted(id, info);
      verdicts.set(id, [...(verdicts.get(id) ?? []), v]);
      return v;
    };
    h.start(gatedProcessor(recording, async (job) => void sent.push(job.deliveryId), log.logger));
  }

  it("delivers a committed change", async () => {
    startWorker();
    const job = makeJob(keys);
    await db.tx(async (q) => {
      await q.query("INSERT INTO pending_change (delivery_id) VALUES ($1)", [job.deliveryId]);
      await h.queue.enqueue(job);
    });
    // On a CI machine running other suites beside, a worker's first poll can take seconds.
    await waitFor(() => sent.includes(job.deliveryId), 30_000, "delivery");
    expect(verdicts.get(job.deliveryId)?.at(-1)).toBe("send");
  });

  it("never delivers a rolled-back change", async () => {
    startWorker();
    const job = makeJob(keys);
    await expect(
      db.tx(async (q) => {
        await q.query("INSERT INTO pending_change (delivery_id) VALUES ($1)", [job.deliveryId]);
        await h.queue.enqueue(job);
        throw new Error("constraint failed later in the request");
      }),
    ).rejects.toThrow("constraint failed");
    await waitFor(() => verdicts.get(job.deliveryId)?.at(-1) === "drop", 10_000, "drop verdict");
    await sleep(200);
    expect(sent).not.toContain(job.deliveryId);
    expect(await h.deadLetters()).toEqual([]);
  });

  it("delivers a slow commit once it is visible", async () => {
    startWorker();
    const job = makeJob(keys);
    await db.tx(async (q) => {
      await q.query("INSERT INTO pending_change (delivery_id) VALUES ($1)", [job.deliveryId]);
      await h.queue.enqueue(job);
      await sleep(600);
    });
    // The re-check waits a backoff; on a CI machine running other suites beside, that can take seconds.
    await waitFor(() => sent.includes(job.deliveryId), 30_000, "delivery");
    const seen = verdicts.get(job.deliveryId)!;
    if (dbKind === "pg") expect(seen[0]).toBe("wait"); // PGlite blocked the check until the commit instead
    expect(seen.at(-1)).toBe("send");
    expect(sent.filter((id) => id === job.deliveryId)).toHaveLength(1);
  });

  it("drops a superseded change without sending", async () => {
    startWorker();
    const job = makeJob(keys);
    await db.query("INSERT INTO pending_change (delivery_id, superseded) VALUES ($1, true)", [job.deliveryId]);
    await h.queue.enqueue(job);
    await waitFor(() => verdicts.get(job.deliveryId)?.at(-1) === "drop", 10_000, "drop verdict");
    expect(sent).not.toContain(job.deliveryId);
  });
});

describe("queue outage inside the transaction", () => {
  beforeAll(() => useDatabase("pg"));
  afterAll(() => db.close());
  it("rolls the change back when the job cannot be queued", async () => {
    const queue = bullmqQueue({ redisUrl: "redis://127.0.0.1:1", timeoutMs: 500 });
    const job = makeJob(keys);
    await expect(
      db.tx(async (q) => {
        await q.query("INSERT INTO pending_change (delivery_id) VALUES ($1)", [job.deliveryId]);
        await queue.enqueue(job);
      }),
    ).rejects.toThrow();
    const { rowCount } = await db.query("SELECT 1 FROM pending_change WHERE delivery_id = $1", [job.deliveryId]);
    expect(rowCount).toBe(0);
    await queue.close();
  });
});
