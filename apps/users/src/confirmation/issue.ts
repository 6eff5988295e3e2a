import { randomBytes } from "node:crypto";
import { sealJobSecrets, type DeliveryLocale, type DeliveryPurpose } from "@gatehouse/jobs";
import { randomDigits, randomSecret, type KeyRing } from "@gatehouse/secrets";
import type { Deliveries } from "../delivery/queue.ts";
import type { IdKey } from "../users/identifiers.ts";
import { CONFIRMATION_MAC, type ConfirmationOptions } from "./options.ts";
import type { ConfirmationStore } from "./store.ts";

export interface IssueRequest {
  userId: string;
  key: Extract<IdKey, "email" | "phone_number">;
  value: string;
  purpose: DeliveryPurpose;
  locale: DeliveryLocale;
  clientId?: string;
  entrypointId?: string;
  contextUrl?: string;
}

/** What issuing a code needs besides its stores. */
export interface IssueDeps {
  keys: KeyRing;
  options: ConfirmationOptions;
}

/** The stores a code is issued with, inside the caller's transaction. */
export interface IssueStores {
  confirmations: ConfirmationStore;
  deliveries: Deliveries;
}

/**
 * Stores a new code and link token (as MACs only) for one identifier value,
 * supersedes the older live ones (except for a resend: the user may still
 * use the code or link of an earlier message for the same value), and
 * queues the delivery. Call it with the stores of the change's transaction:
 * a failed enqueue rolls the whole change back (502).
 */
export async function issueConfirmation(
  stores: IssueStores,
  deps: IssueDeps,
  req: IssueRequest,
): Promise<{ deliveryId: string }> {
  const mac = deps.keys.mac(CONFIRMATION_MAC);
  const code = randomDigits(6);
  const linkToken = randomSecret(32);
  const deliveryId = randomBytes(16).toString("hex");
  const ttl = req.key === "email" ? deps.options.emailTtlSeconds : deps.options.smsTtlSeconds;

  if (req.purpose !== "resend") await stores.confirmations.supersedeLive(req.userId, req.key);
  await stores.confirmations.insert({
    id: deliveryId,
    userId: req.userId,
    key: req.key,
    value: req.value,
    purpose: req.purpose,
    codeHash: mac(`${deliveryId}:${code}`),
    linkTokenHash: mac(linkToken),
    contextUrl: req.contextUrl ?? null,
    clientId: req.clientId ?? null,
    entrypointId: req.entrypointId ?? null,
    ttlSeconds: ttl,
  });
  await stores.deliveries.queue(
    {
      deliveryId,
      userId: req.userId,
      channel: req.key === "email" ? "email" : "sms",
      to: req.value,
      locale: req.locale,
      purpose: req.purpose,
      sealedSecrets: sealJobSecrets(deps.keys, deliveryId, { code, linkToken }),
    },
    { entrypointId: req.entrypointId },
  );
  return { deliveryId };
}
