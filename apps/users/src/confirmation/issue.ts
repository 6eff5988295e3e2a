import { randomBytes } from "node:crypto";
import type { Queryable } from "@gatehouse/db";
import { domainError } from "@gatehouse/errors";
import { sealJobSecrets, type ConfirmationJob, type DeliveryLocale, type DeliveryPurpose } from "@gatehouse/jobs";
import { randomDigits, randomSecret, type KeyRing } from "@gatehouse/secrets";
import type { IdKey } from "../users/identifiers.ts";
import { CONFIRMATION_MAC, type ConfirmationOptions } from "./options.ts";

/** Hands one delivery to the queue inside the change's transaction `tx`; throws when the queue cannot take it. */
export type Enqueue = (job: ConfirmationJob, tx: Queryable) => Promise<void>;

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

export interface IssueDeps {
  keys: KeyRing;
  enqueue: Enqueue;
  options: ConfirmationOptions;
}

/**
 * Stores a new code and link token (as MACs only) for one identifier value,
 * supersedes the older live ones (except for a resend: the user may still
 * use the code or link of an earlier message for the same value), and
 * enqueues the delivery. Call it inside
 * the transaction of the change: enqueueing before commit means a failed
 * enqueue rolls the whole change back (502), and the worker waits for the
 * commit before sending (jobs' gatedProcessor).
 */
export async function issueConfirmation(
  q: Queryable,
  deps: IssueDeps,
  req: IssueRequest,
): Promise<{ deliveryId: string }> {
  const mac = deps.keys.mac(CONFIRMATION_MAC);
  const code = randomDigits(6);
  const linkToken = randomSecret(32);
  const deliveryId = randomBytes(16).toString("hex");
  const ttl = req.key === "email" ? deps.options.emailTtlSeconds : deps.options.smsTtlSeconds;

  if (req.purpose !== "resend") {
    await q.query(
      `UPDATE users.confirmations SET superseded_at = now()
        WHERE user_id = $1 AND key = $2 AND used_at IS NULL AND superseded_at IS NULL`,
      [req.userId, req.key],
    );
  }
  await q.query(
    `INSERT INTO users.confirmations
       (id, user_id, key, value, purpose, code_hash, link_token_hash, context_url, client_id, entrypoint_id, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now() + make_interval(secs => $11))`,
    [
      deliveryId,
      req.userId,
      req.key,
      req.value,
      req.purpose,
      mac(`${deliveryId}:${code}`),
      mac(linkToken),
      req.contextUrl ?? null,
      req.clientId ?? null,
      req.entrypointId ?? null,
      ttl,
    ],
  );

  const job: ConfirmationJob = {
    deliveryId,
    userId: req.userId,
    channel: req.key === "email" ? "email" : "sms",
    to: req.value,
    locale: req.locale,
    purpose: req.purpose,
    sealedSecrets: sealJobSecrets(deps.keys, deliveryId, { code, linkToken }),
  };
  try {
    await deps.enqueue(job, q);
  } catch (err) {
    const failure = domainError("CONFIRMATION_NOT_QUEUED", undefined, { metadata: { key: req.key } });
    failure.cause = err; // for the logs; never sent to the caller
    throw failure;
  }
  return { deliveryId };
}
