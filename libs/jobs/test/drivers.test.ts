import { afterEach, describe, expect, it } from "vitest";
import { bullmqQueue, UnrecoverableError, type ConfirmationJob } from "../src/index.ts";
import { capturedLogger, fastJobOptions, makeJob, sleep, testKeys, waitFor } from "./helpers.ts";
import { makeHarness, type Harness } from "./harness.ts";

const keys = testKeys();

describe.each(["bullmq", "memory"] as const)("%s delivery queue", (kind) => {
  let h: Harness;
  const log = capturedLogger();
  afterEach(async () => h?.cleanup());

  it("delivers a job and retries a failing one with backoff until it succeeds", async () => {
    h = makeHarness(kind, log.logger, fastJobOptions);
    const attempts: number[] = [];
    const done: string[] = [];
    h.start(async (job, attempt) => {
      attempts.push(attempt);
      if (attempt < 3) throw new Error("transient");
      done.push(job.deliveryId);
    });
    const job = makeJob(keys);
    await h.queue.enqueue(job);
    await waitFor(() => done.length === 1, 10_000, "delivery");
    expect(attempts).toEqual([1, 2, 3]);
    expect(await h.deadLetters()).toEqual([]);
  });

  it("ignores a second enqueue of the same delivery (idempotent job id)", async () => {
    h = makeHarness(kind, log.logger, fastJobOptions);
    const seen: string[] = [];
    const job = makeJob(keys);
    await h.queue.enqueue(job);
    await h.queue.enqueue(job);
    h.start(async (j) => {
      seen.push(j.deliveryId);
    });
    await waitFor(() => seen.length >= 1, 10_000, "delivery");
    await h.queue.enqueue(job); // also after completion (completed jobs are kept a day)
    await sleep(400);
    expect(seen).toEqual([job.deliveryId]);
  });

  it("dead-letters at once on UnrecoverableError, and after the last attempt otherwise", async () => {
    h = makeHarness(kind, log.logger, { ...fastJobOptions, attempts: 3 });
    const calls = new Map<string, number>();
    const permanent = makeJob(keys);
    const flaky = makeJob(keys);
    h.start(async (job: ConfirmationJob) => {
      calls.set(job.deliveryId, (calls.get(job.deliveryId) ?? 0) + 1);
      if (job.deliveryId === permanent.deliveryId) throw new UnrecoverableError("recipient refused");
      throw new Error("still down");
    });
    await h.queue.enqueue(permanent);
    await h.queue.enqueue(flaky);
    await waitFor(async () => (await h.deadLetters()).length === 2, 10_000, "two dead letters");
    const dead = await h.deadLetters();
    expect(dead.find((d) => d.deliveryId === permanent.deliveryId)).toMatchObject({
      attemptsMade: 1,
      reason: "recipient refused",
    });
    expect(dead.find((d) => d.deliveryId === flaky.deliveryId)).toMatchObject({
      attemptsMade: 3,
      reason: "still down",
    });
    expect(calls.get(permanent.deliveryId)).toBe(1);
    expect(calls.get(flaky.deliveryId)).toBe(3);
    expect(log.lines().filter((l) => l.includes("failed for good")).length).toBeGreaterThanOrEqual(2);
  });

  it("answers ping while the store is reachable", async () => {
    h = makeHarness(kind, log.logger, fastJobOptions);
    expect(await h.queue.ping()).toBe(true);
  });
});

describe("bullmq producer with Redis unreachable", () => {
  it("fails fast: enqueue throws within the timeout and ping is false", async () => {
    const q = bullmqQueue({ redisUrl: "redis://127.0.0.1:1", prefix: "gh:", timeoutMs: 1500 });
    const started = Date.now();
    await expect(q.enqueue(makeJob(keys))).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await q.ping()).toBe(false);
    await q.close();
  });
});
