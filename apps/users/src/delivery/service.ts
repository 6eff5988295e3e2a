import { timestampMs } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { validationError, type Violation } from "@gatehouse/errors";
import { ConfirmationDeliveryService, DeliveryDecision } from "@gatehouse/proto";
import { INTERNAL_SCOPE, type ScopePolicy } from "@gatehouse/rpc";
import { confirmationStillWanted } from "./still-wanted.ts";
import type { DeliveryStore } from "./store.ts";

const DECISIONS = { send: DeliveryDecision.SEND, wait: DeliveryDecision.WAIT, drop: DeliveryDecision.DROP } as const;

/** Only the confirmation worker (an internal service token) asks. Keyed by method local name, like usersPolicy. */
export const confirmationDeliveryPolicy: ScopePolicy = {
  checkDelivery: [INTERNAL_SCOPE],
};

/**
 * ConfirmationDeliveryService: the worker's "did this change commit" check
 * over RPC, so that a worker in its own process never reads the users schema.
 */
export function createConfirmationDeliveryService(
  store: DeliveryStore,
): ServiceImpl<typeof ConfirmationDeliveryService> {
  const stillWanted = confirmationStillWanted(store);
  return {
    async checkDelivery(req) {
      const violations: Violation[] = [];
      if (!req.deliveryId) violations.push({ field: "deliveryId", code: "required" });
      if (!req.enqueueTime) violations.push({ field: "enqueueTime", code: "required" });
      if (violations.length) throw validationError(violations);
      const verdict = await stillWanted(req.deliveryId, {
        attempt: req.attempt,
        enqueuedAt: timestampMs(req.enqueueTime!),
      });
      return { decision: DECISIONS[verdict] };
    },
  };
}
