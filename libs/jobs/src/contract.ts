import type { Logger } from "@gatehouse/logging";
import type { ConfirmationJob } from "./names.ts";

/** What the producer sees: enqueue throws when the queue cannot take the job (caller answers 502). */
export interface DeliveryQueue {
  enqueue(job: ConfirmationJob): Promise<void>;
  close(): Promise<void>;
  ping(): Promise<boolean>;
}

export interface AttemptInfo {
  /** 1 for the first try. */
  attempt: number;
  /** Epoch ms when the job was enqueued (before the producer's commit). */
  enqueuedAt: number;
}

/** The worker's side: throw to retry, throw UnrecoverableError to dead-letter at once. */
export interface DeliveryProcessor {
  (job: ConfirmationJob, attempt: number, info?: AttemptInfo): Promise<void>;
}

/**
 * The producer enqueues inside its transaction before commit, so the worker asks
 * whether the change is visible: "send"; "wait" (not committed yet: retry later);
 * "drop" (rolled back or superseded: complete without sending).
 */
export type StillWanted = (deliveryId: string, info: AttemptInfo) => Promise<"send" | "wait" | "drop">;

export interface WorkerHandle {
  close(): Promise<void>;
  ready(): Promise<boolean>;
}

export interface WorkerCommon {
  processor: DeliveryProcessor;
  logger: Logger;
  concurrency?: number;
}
