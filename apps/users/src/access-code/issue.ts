import { randomBytes } from "node:crypto";
import { sealJobSecrets, type DeliveryLocale } from "@gatehouse/jobs";
import { randomDigits, type KeyRing } from "@gatehouse/secrets";
import type { Deliveries } from "../delivery/queue.ts";
import type { AccessCodeOptions } from "./options.ts";
import type { AccessCodeStore } from "./store.ts";

/** MAC label of sign-in codes: stored only as HMAC-SHA256 under a key derived for this purpose. */
export const ACCESS_CODE_MAC = "access-code";

export interface NewAccessCode {
  userId: string;
  key: "email" | "phone_number";
  value: string;
  locale: DeliveryLocale;
  clientId: string;
  entrypointId: string;
}

/**
 * Stores a new 6-digit sign-in code (its MAC only) and queues its delivery,
 * inside the caller's transaction (a refused enqueue rolls it back). Earlier
 * live codes stay live, like a confirmation resend: the user may type the
 * code of either message; every guess spends a try of each.
 */
export async function issueAccessCode(
  stores: { accessCodes: AccessCodeStore; deliveries: Deliveries },
  deps: { keys: KeyRing; accessCodes: AccessCodeOptions },
  req: NewAccessCode,
): Promise<void> {
  const code = randomDigits(6);
  const id = randomBytes(16).toString("hex");
  await stores.accessCodes.insert({
    id,
    userId: req.userId,
    key: req.key,
    value: req.value,
    codeHash: deps.keys.mac(ACCESS_CODE_MAC)(`${id}:${code}`),
    clientId: req.clientId,
    entrypointId: req.entrypointId,
    ttlSeconds: deps.accessCodes.ttlSeconds,
  });
  await stores.deliveries.queue(
    {
      deliveryId: id,
      userId: req.userId,
      channel: req.key === "email" ? "email" : "sms",
      to: req.value,
      locale: req.locale,
      purpose: "access_code",
      sealedSecrets: sealJobSecrets(deps.keys, id, { code, linkToken: "" }),
    },
    { entrypointId: req.entrypointId },
  );
}
