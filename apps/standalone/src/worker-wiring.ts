import type { Client } from "@connectrpc/connect";
import type { Config } from "@gatehouse/config";
import { createConfirmationWorker, type ConfirmationWorker } from "@gatehouse/confirmation-worker";
import type { MemoryDeliveryQueue, StillWanted } from "@gatehouse/jobs";
import type { Logger } from "@gatehouse/logging";
import { DeliveryDecision, type ConfirmationDeliveryService } from "@gatehouse/proto";
import type { KeyRing } from "@gatehouse/secrets";

// Apart from users-wiring.ts: the worker process loads no users service, and
// the users process loads the worker (and its mail transport) only when it hosts it.

const CHECK_TIMEOUT_MS = 10_000;

const timestampOfMs = (ms: number) => ({ seconds: BigInt(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1_000_000 });

const VERDICTS: Partial<Record<DeliveryDecision, "send" | "wait" | "drop">> = {
  [DeliveryDecision.SEND]: "send",
  [DeliveryDecision.WAIT]: "wait",
  [DeliveryDecision.DROP]: "drop",
};

/** The worker's "did this change commit" check, asked of the users service over RPC (in-process or HTTP). */
export function deliveryCheck(deliveries: Client<typeof ConfirmationDeliveryService>): StillWanted {
  return async (deliveryId, info) => {
    // Bounded: a hung users service must not hold a worker slot; the attempt fails and is retried.
    const res = await deliveries.checkDelivery(
      { deliveryId, enqueueTime: timestampOfMs(info.enqueuedAt), attempt: info.attempt },
      { timeoutMs: CHECK_TIMEOUT_MS },
    );
    const verdict = VERDICTS[res.decision];
    // An unknown answer is the users service's bug: fail the attempt, the queue retries.
    if (!verdict) throw new Error(`unexpected delivery decision ${res.decision}`);
    return verdict;
  };
}

/** The confirmation worker: consumes BullMQ (REDIS_URL) or the given in-process queue; checks each delivery over RPC. */
export function wireWorker(args: {
  config: Config;
  keys: KeyRing;
  logger: Logger;
  deliveries: Client<typeof ConfirmationDeliveryService>;
  memoryQueue?: MemoryDeliveryQueue;
}): Promise<ConfirmationWorker> {
  return createConfirmationWorker({
    config: args.config,
    keys: args.keys,
    logger: args.logger.child({ service: "confirmation-worker" }),
    isStillWanted: deliveryCheck(args.deliveries),
    memoryQueue: args.memoryQueue,
  });
}
