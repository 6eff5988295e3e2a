import type { StillWanted } from "@gatehouse/jobs";
import type { DeliveryStore } from "./store.ts";

/** How long the worker waits for a delivery's transaction to commit before giving it up as rolled back. */
const COMMIT_GRACE_MS = 60_000;

/**
 * The worker's question for a delivery enqueued before commit: send when its
 * confirmation (or sign-in code, or activation link) is committed and still
 * live, wait while it may still commit, drop when it was rolled back, used,
 * superseded or expired.
 */
export function confirmationStillWanted(store: DeliveryStore): StillWanted {
  return async (deliveryId, info) => {
    const live = await store.isLive(deliveryId);
    if (live === undefined) return Date.now() - info.enqueuedAt < COMMIT_GRACE_MS ? "wait" : "drop";
    return live ? "send" : "drop";
  };
}
