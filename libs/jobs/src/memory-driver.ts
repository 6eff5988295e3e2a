import { UnrecoverableError } from "bullmq";
import type { DeliveryProcessor, DeliveryQueue, DeliveryStore, WorkerCommon, WorkerHandle } from "./contract.ts";
import { isFinalFailure } from "./bullmq-driver.ts";
import { defaultJobOptions, jobIdFor, type ConfirmationJob, type JobOptions } from "./names.ts";
import { tracedAttempt, tracedEnqueue } from "./trace.ts";

// The embedded default: an in-process queue with BullMQ's retry, backoff and
// dead-letter semantics. With a store (the embedded database's outbox table)
// every job is written in the producer's transaction and deleted once sent or
// dropped, so a crash loses nothing: the next start drains what is left.
// Without one, jobs live in memory only (tests).

export interface DeadLetter {
  job: ConfirmationJob;
  reason: string;
  attemptsMade: number;
  failedAt: number;
}

export interface MemoryDeliveryQueue extends DeliveryQueue {
  readonly kind: "memory";
  /** Final failures, newest last (the in-process equivalent of BullMQ's failed set). */
  deadLetters(): DeadLetter[];
  /** Attaches the processor (one at a time); used by startDeliveryWorker. */
  process(opts: WorkerCommon): WorkerHandle;
}

interface Entry {
  job: ConfirmationJob;
  enqueuedAt: number;
  attemptsMade: number;
  finishedAt?: number;
}

/** BullMQ's exponential backoff: delay * 2^(n-1), jitter spreading it down to (1 - jitter) of that. */
export function backoffDelay(attemptsMade: number, backoff: JobOptions["backoff"]): number {
  const raw = 2 ** (attemptsMade - 1) * backoff.delay;
  if (!backoff.jitter) return raw;
  return Math.floor(Math.random() * raw * backoff.jitter + raw * (1 - backoff.jitter));
}

export function memoryQueue(
  opts: { jobOptions?: Partial<JobOptions>; store?: DeliveryStore } = {},
): MemoryDeliveryQueue {
  const options: JobOptions = { ...defaultJobOptions, ...opts.jobOptions };
  const store = opts.store;
  const entries = new Map<string, Entry>();
  const ready: Entry[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const dead: DeadLetter[] = [];
  let worker: (WorkerCommon & { active: Set<Promise<void>> }) | undefined;
  let closed = false;

  const prune = (now: number) => {
    for (const [id, e] of entries) {
      const age = e.finishedAt === undefined ? 0 : now - e.finishedAt;
      const keep = dead.some((d) => d.job === e.job) ? options.removeOnFail.age : options.removeOnComplete.age;
      if (e.finishedAt !== undefined && age > keep * 1000) entries.delete(id);
    }
    while (dead.length && now - dead[0]!.failedAt > options.removeOnFail.age * 1000) dead.shift();
  };

  const later = (fn: () => void, ms: number) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    t.unref();
    timers.add(t);
  };

  // The store's bookkeeping must not turn a sent message into a retry: it is logged, not thrown.
  const record = (w: NonNullable<typeof worker>, e: Entry, what: Promise<void> | undefined) =>
    what?.catch((err: unknown) => w.logger.error({ err, deliveryId: e.job.deliveryId }, "delivery outbox not updated"));

  const run = async (w: NonNullable<typeof worker>, e: Entry, processor: DeliveryProcessor) => {
    const attempt = e.attemptsMade + 1;
    try {
      await tracedAttempt(e.job, attempt, () => processor(e.job, attempt, { attempt, enqueuedAt: e.enqueuedAt }));
      e.attemptsMade = attempt;
      e.finishedAt = Date.now();
      await record(w, e, store?.finish(e.job.deliveryId));
    } catch (caught) {
      const err = caught instanceof Error ? caught : new Error(String(caught));
      e.attemptsMade = attempt;
      const facts = {
        deliveryId: e.job.deliveryId,
        channel: e.job.channel,
        attemptsMade: attempt,
        reason: err.message,
      };
      const final = isFinalFailure(err, attempt, options.attempts);
      await record(w, e, store?.failed(e.job.deliveryId, attempt, err.message, final));
      if (final) {
        e.finishedAt = Date.now();
        dead.push({ job: e.job, reason: err.message, attemptsMade: attempt, failedAt: e.finishedAt });
        w.logger.error(facts, "confirmation delivery failed for good (dead letter)");
      } else {
        w.logger.warn(facts, "confirmation delivery attempt failed; will retry");
        schedule(e, backoffDelay(attempt, options.backoff));
      }
    }
  };

  const pump = () => {
    const w = worker;
    if (!w) return;
    while (w.active.size < (w.concurrency ?? 4) && ready.length > 0) {
      const e = ready.shift()!;
      const p: Promise<void> = run(w, e, w.processor).finally(() => {
        w.active.delete(p);
        pump();
      });
      w.active.add(p);
    }
  };

  const schedule = (e: Entry, delayMs: number) =>
    later(() => {
      ready.push(e);
      pump();
    }, delayMs);

  /** What the store kept from before this process (a crash, a restart): back in the queue. */
  const drain = async () => {
    if (!store) return;
    for (const d of await store.pending()) {
      const id = jobIdFor(d.job.deliveryId);
      if (entries.has(id)) continue;
      const e: Entry = { job: d.job, enqueuedAt: d.enqueuedAt, attemptsMade: d.attemptsMade };
      entries.set(id, e);
      schedule(e, 0);
    }
  };

  return {
    kind: "memory",
    enqueue: (untraced, tx) =>
      tracedEnqueue(untraced, async (job) => {
        if (closed) throw new Error("delivery queue is closed");
        const id = jobIdFor(job.deliveryId);
        const now = Date.now();
        prune(now);
        if (entries.has(id)) return; // same idempotency as BullMQ's jobId
        await store?.add(job, now, tx);
        const e: Entry = { job, enqueuedAt: now, attemptsMade: 0 };
        entries.set(id, e);
        // Asynchronous like a real queue: the producer's transaction is usually still open here.
        schedule(e, 0);
      }),
    ping: async () => !closed,
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      if (worker) await Promise.allSettled([...worker.active]);
    },
    deadLetters: () => [...dead],
    process(common) {
      if (worker) throw new Error("a worker is already attached to this memory queue");
      const w = { ...common, active: new Set<Promise<void>>() };
      worker = w;
      drain().then(pump, (err: unknown) => w.logger.error({ err }, "delivery outbox could not be drained"));
      pump();
      return {
        async close() {
          if (worker === w) worker = undefined;
          await Promise.allSettled([...w.active]);
        },
        ready: async () => !closed,
      };
    },
  };
}

export { UnrecoverableError };
