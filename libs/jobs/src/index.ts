import { startBullmqWorker, type BullmqWorkerOptions } from "./bullmq-driver.ts";
import type { WorkerCommon, WorkerHandle } from "./contract.ts";
import type { MemoryDeliveryQueue } from "./memory-driver.ts";

export * from "./names.ts";
export * from "./contract.ts";
export * from "./gate.ts";
export {
  bullmqQueue,
  startBullmqWorker,
  isFinalFailure,
  type BullmqQueueOptions,
  type BullmqWorkerOptions,
} from "./bullmq-driver.ts";
export { memoryQueue, backoffDelay, type MemoryDeliveryQueue, type DeadLetter } from "./memory-driver.ts";
export { UnrecoverableError } from "bullmq";

export type StartDeliveryWorkerOptions =
  ({ driver: "bullmq" } & BullmqWorkerOptions) | ({ driver: "memory"; queue: MemoryDeliveryQueue } & WorkerCommon);

/** Runs the processor over BullMQ (own process, Redis) or the in-process queue (embedded default). */
export function startDeliveryWorker(opts: StartDeliveryWorkerOptions): WorkerHandle {
  if (opts.driver === "memory") return opts.queue.process(opts);
  return startBullmqWorker(opts);
}
