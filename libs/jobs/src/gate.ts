import type { Logger } from "@gatehouse/logging";
import type { AttemptInfo, DeliveryProcessor, StillWanted } from "./contract.ts";
import type { ConfirmationJob } from "./names.ts";

/** Thrown while the producer's transaction is not visible yet: an ordinary error, so the queue backs off. */
export class NotYetCommittedError extends Error {
  override name = "NotYetCommittedError";
}

/** Wraps a sender so it only runs once the delivery's change has committed and is still current. */
export function gatedProcessor(
  isStillWanted: StillWanted,
  send: (job: ConfirmationJob, info: AttemptInfo) => Promise<void>,
  logger: Logger,
): DeliveryProcessor {
  return async (job, attempt, info) => {
    const at: AttemptInfo = info ?? { attempt, enqueuedAt: Date.now() };
    const verdict = await isStillWanted(job.deliveryId, at);
    if (verdict === "wait") throw new NotYetCommittedError(`delivery ${job.deliveryId} not committed yet`);
    if (verdict === "drop") {
      logger.info(
        { deliveryId: job.deliveryId, attempt },
        "confirmation delivery dropped: change not committed or superseded",
      );
      return;
    }
    await send(job, at);
  };
}
