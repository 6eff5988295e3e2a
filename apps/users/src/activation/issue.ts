import { randomBytes } from "node:crypto";
import { sealJobSecrets, type DeliveryLocale } from "@gatehouse/jobs";
import { randomSecret, type KeyRing } from "@gatehouse/secrets";
import type { Deliveries } from "../delivery/queue.ts";
import type { ActivationStore } from "./store.ts";

/** An activation link works this long (contract section 8: 7 days). */
export const ACTIVATION_TTL_SECONDS = 7 * 86_400;
/** MAC label of activation tokens: stored only as HMAC-SHA256. */
export const ACTIVATION_MAC = "activation";

export interface NewActivation {
  userId: string;
  key: "email" | "phone_number";
  value: string;
  locale: DeliveryLocale;
  clientId: string;
  entrypointId: string;
}

/** The stores an activation link is issued with, inside the caller's transaction. */
export interface ActivationStores {
  activations: ActivationStore;
  deliveries: Deliveries;
}

/**
 * Stores an activation link (its token's MAC only, 7 days, one use) for a
 * user an application registered through an assisted entry point, and queues
 * the message that carries it, inside the caller's transaction. Earlier live
 * links stay valid (a resend); using one ends them all.
 */
export async function issueActivation(stores: ActivationStores, keys: KeyRing, req: NewActivation): Promise<void> {
  const { id, token } = await storeActivation(stores.activations, keys, req);
  await stores.deliveries.queue(
    {
      deliveryId: id,
      userId: req.userId,
      channel: req.key === "email" ? "email" : "sms",
      to: req.value,
      locale: req.locale,
      purpose: "activation",
      sealedSecrets: sealJobSecrets(keys, id, { code: "", linkToken: token }),
    },
    { entrypointId: req.entrypointId },
  );
}

/**
 * Stores an activation link (its token's MAC only, 7 days, one use) inside the
 * caller's transaction and returns the token, which is nowhere else: the
 * caller sends it (issueActivation) or hands it over (create-operator).
 */
export async function storeActivation(
  activations: ActivationStore,
  keys: KeyRing,
  req: Omit<NewActivation, "locale">,
): Promise<{ id: string; token: string; expiresAt: Date }> {
  const token = randomSecret(32);
  const id = randomBytes(16).toString("hex");
  const expiresAt = await activations.insert({
    id,
    ...req,
    tokenHash: keys.mac(ACTIVATION_MAC)(token),
    ttlSeconds: ACTIVATION_TTL_SECONDS,
  });
  return { id, token, expiresAt };
}

/** A new activation link to the identifier of the latest one (the 412's resend for an account awaiting activation). */
export async function resendActivation(
  stores: ActivationStores,
  keys: KeyRing,
  userId: string,
  locale: DeliveryLocale,
): Promise<boolean> {
  const latest = await stores.activations.latest(userId);
  if (!latest) return false;
  await issueActivation(stores, keys, { userId, ...latest, locale });
  return true;
}
