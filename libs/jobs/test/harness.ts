import { Queue } from "bullmq";
import { redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import type { Logger } from "@gatehouse/logging";
import {
  bullmqQueue,
  bullPrefix,
  memoryQueue,
  QUEUE_NAME,
  startDeliveryWorker,
  type DeliveryProcessor,
  type DeliveryQueue,
  type JobOptions,
  type WorkerHandle,
} from "../src/index.ts";

/** One driver under test: the same scenarios run against BullMQ (real Redis) and the memory queue. */
export interface Harness {
  queue: DeliveryQueue;
  start(processor: DeliveryProcessor, extra?: { lockDuration?: number; stalledInterval?: number }): WorkerHandle;
  deadLetters(): Promise<{ deliveryId: string; attemptsMade: number; reason: string }[]>;
  cleanup(): Promise<void>;
}

export type DriverKind = "bullmq" | "memory";

export function makeHarness(kind: DriverKind, logger: Logger, jobOptions: Partial<JobOptions>): Harness {
  const workers: WorkerHandle[] = [];
  if (kind === "memory") {
    const queue = memoryQueue({ jobOptions });
    return {
      queue,
      start(processor) {
        const w = startDeliveryWorker({ driver: "memory", queue, processor, logger });
        workers.push(w);
        return w;
      },
      deadLetters: async () =>
        queue
          .deadLetters()
          .map((d) => ({ deliveryId: d.job.deliveryId, attemptsMade: d.attemptsMade, reason: d.reason })),
      async cleanup() {
        await Promise.all(workers.map((w) => w.close()));
        await queue.close();
      },
    };
  }
  const redisUrl = redisTestUrl();
  const prefix = uniquePrefix();
  const queue = bullmqQueue({ redisUrl, prefix, jobOptions });
  const inspector = new Queue(QUEUE_NAME, { connection: { url: redisUrl }, prefix: bullPrefix(prefix) });
  return {
    queue,
    start(processor, extra = {}) {
      const w = startDeliveryWorker({ driver: "bullmq", redisUrl, prefix, processor, logger, ...extra });
      workers.push(w);
      return w;
    },
    async deadLetters() {
      const failed = await inspector.getFailed();
      return failed.map((j) => ({
        deliveryId: j.data.deliveryId as string,
        attemptsMade: j.attemptsMade,
        reason: j.failedReason,
      }));
    },
    async cleanup() {
      await Promise.all(workers.map((w) => w.close()));
      await queue.close();
      await inspector.obliterate({ force: true });
      await inspector.close();
    },
  };
}
