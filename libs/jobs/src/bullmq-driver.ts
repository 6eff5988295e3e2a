import type { Logger } from "@gatehouse/logging";
import { Queue, UnrecoverableError, Worker } from "bullmq";
import type { DeliveryQueue, WorkerCommon, WorkerHandle } from "./contract.ts";
import {
  bullPrefix,
  defaultJobOptions,
  JOB_NAME,
  jobIdFor,
  QUEUE_NAME,
  type ConfirmationJob,
  type JobOptions,
} from "./names.ts";
import { tracedAttempt, tracedEnqueue } from "./trace.ts";

export interface BullmqQueueOptions {
  redisUrl: string;
  /** Our REDIS_PREFIX ("gh:"); see bullPrefix. */
  prefix?: string;
  /** Tests shorten the backoff; production keeps defaultJobOptions. */
  jobOptions?: Partial<JobOptions>;
  logger?: Logger;
  /** Upper bound for one enqueue, so a hung connection also fails fast. */
  timeoutMs?: number;
}

const STALL_LOCK_MS = 10_000;
const STALL_CHECK_MS = 5_000;

/** Reconnects at least once a second (BullMQ's own pace backs off to 20 s): deliveries resume soon after Redis does. */
const reconnect = (times: number) => Math.min(times * 100, 1000);

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** Producer side. No offline queue: while Redis is unreachable enqueue throws at once (caller answers 502). */
export function bullmqQueue(opts: BullmqQueueOptions): DeliveryQueue {
  const queue = new Queue<ConfirmationJob>(QUEUE_NAME, {
    connection: { url: opts.redisUrl, enableOfflineQueue: false, retryStrategy: reconnect },
    prefix: bullPrefix(opts.prefix),
    defaultJobOptions: { ...defaultJobOptions, ...opts.jobOptions },
  });
  // Without a listener an 'error' event (Redis down) would crash the process.
  queue.on("error", (err) => opts.logger?.warn({ err: err.message }, "delivery queue connection error"));
  // Short: the request that enqueues waits for it (a registration answers within a second either way).
  const timeoutMs = opts.timeoutMs ?? 1000;
  return {
    enqueue: (job) =>
      tracedEnqueue(job, async (traced) => {
        await withTimeout(queue.add(JOB_NAME, traced, { jobId: jobIdFor(traced.deliveryId) }), timeoutMs, "enqueue");
      }),
    async ping() {
      try {
        // A cheap read through the producer connection proves Redis answers.
        await withTimeout(queue.getWaitingCount(), timeoutMs, "ping");
        return true;
      } catch {
        return false;
      }
    },
    close: () => queue.close(),
  };
}

export interface BullmqWorkerOptions extends WorkerCommon {
  redisUrl: string;
  prefix?: string;
  /** Tests shorten these to recover stalled jobs quickly. */
  lockDuration?: number;
  stalledInterval?: number;
}

export function isFinalFailure(err: Error, attemptsMade: number, attempts: number | undefined): boolean {
  return err instanceof UnrecoverableError || err.name === "UnrecoverableError" || attemptsMade >= (attempts ?? 1);
}

/** Consumer side. The failed set is the dead-letter queue (kept 14 days; replay with job.retry()). */
export function startBullmqWorker(opts: BullmqWorkerOptions): WorkerHandle {
  const { logger, processor } = opts;
  const worker = new Worker<ConfirmationJob>(
    QUEUE_NAME,
    async (job) => {
      const attempt = job.attemptsMade + 1;
      await tracedAttempt(job.data, attempt, () =>
        processor(job.data, attempt, { attempt, enqueuedAt: job.timestamp }),
      );
    },
    {
      connection: { url: opts.redisUrl, maxRetriesPerRequest: null, retryStrategy: reconnect },
      prefix: bullPrefix(opts.prefix),
      concurrency: opts.concurrency ?? 4,
      // A worker that dies (kill -9) keeps its job until the lock lapses and a stalled check runs:
      // BullMQ's 30 s + 30 s made that up to a minute. An attempt takes seconds (a 10 s check, one
      // send) and the lock is renewed every lockDuration / 2 while it runs, so 10 s + 5 s is safe.
      lockDuration: opts.lockDuration ?? STALL_LOCK_MS,
      stalledInterval: opts.stalledInterval ?? STALL_CHECK_MS,
    },
  );
  worker.on("failed", (job, err) => {
    const facts = {
      deliveryId: job?.data.deliveryId,
      channel: job?.data.channel,
      attemptsMade: job?.attemptsMade,
      reason: err.message,
    };
    if (!job || isFinalFailure(err, job.attemptsMade, job.opts.attempts)) {
      logger.error(facts, "confirmation delivery failed for good (dead letter)");
    } else {
      logger.warn(facts, "confirmation delivery attempt failed; will retry");
    }
  });
  worker.on("error", (err) => logger.error({ err: err.message }, "confirmation worker error"));
  return {
    // Waits for active jobs to finish; the worker owns (and quits) its connections.
    close: () => worker.close(),
    async ready() {
      try {
        await worker.waitUntilReady();
        return true;
      } catch {
        return false;
      }
    },
  };
}
