import type { Queryable } from "@gatehouse/db";
import type { Logger } from "@gatehouse/logging";
import type { ConfirmationJob } from "./names.ts";

/**
 * What the producer sees: enqueue throws when the queue cannot take the job
 * (caller answers 502). `tx` is the producer's open transaction: a queue kept
 * in the database (the embedded default) writes the job there, so the change
 * and its delivery commit or roll back together.
 */
export interface DeliveryQueue {
  enqueue(job: ConfirmationJob, tx?: Queryable): Promise<void>;
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

/** A job the in-process queue kept in its store, not finished yet. */
export interface StoredDelivery {
  job: ConfirmationJob;
  enqueuedAt: number;
  attemptsMade: number;
}

/**
 * Durable storage of the in-process queue (the embedded database's outbox
 * table): jobs survive a crash of the process and are drained at its next start.
 */
export interface DeliveryStore {
  /** Records a job in the producer's transaction (or on its own without one). */
  add(job: ConfirmationJob, enqueuedAt: number, tx?: Queryable): Promise<void>;
  /** Every job neither finished nor dead, oldest first. */
  pending(): Promise<StoredDelivery[]>;
  /** Sent or dropped: it never runs again. */
  finish(deliveryId: string): Promise<void>;
  /** An attempt failed; `final` makes it a dead letter (kept, not run again). */
  failed(deliveryId: string, attemptsMade: number, reason: string, final: boolean): Promise<void>;
}
