import type { KeyRing } from "@gatehouse/secrets";

// Names, payload and options shared by the producer (users service) and the
// confirmation worker. BullMQ refuses ':' in queue names and job ids.
export const QUEUE_NAME = "confirmation-delivery";
export const JOB_NAME = "send-confirmation";

export interface JobOptions {
  attempts: number;
  backoff: { type: "exponential"; delay: number; jitter: number };
  removeOnComplete: { age: number };
  removeOnFail: { age: number };
}

const DAY_SECONDS = 86_400;

/**
 * 12 tries, 2 s apart and doubling (half of each wait random): the last one
 * comes ~34–68 min after the first, so a mail server or SMS gateway down for
 * half an hour still gets the message. A code that expired meanwhile is
 * dropped before its try (the worker asks the users service first).
 */
export const defaultJobOptions: JobOptions = {
  attempts: 12,
  backoff: { type: "exponential", delay: 2000, jitter: 0.5 },
  removeOnComplete: { age: DAY_SECONDS },
  removeOnFail: { age: 14 * DAY_SECONDS },
};

export type DeliveryChannel = "email" | "sms";
export type DeliveryLocale = "en" | "es";
/**
 * Why a message is sent: a confirmation code and link (`register`, `change`,
 * `resend`), a one-time sign-in code (`access_code`: code only), or the
 * activation link of an assisted registration (`activation`: link only).
 */
export type DeliveryPurpose = "register" | "change" | "resend" | "access_code" | "activation";

/** One confirmation message to deliver. Ids in clear text; the code only sealed. */
export interface ConfirmationJob {
  deliveryId: string;
  userId: string;
  channel: DeliveryChannel;
  to: string;
  locale: DeliveryLocale;
  purpose: DeliveryPurpose;
  sealedSecrets: string;
  /** W3C trace context of the request that queued it (traces on only). */
  trace?: Record<string, string>;
}

/** The code and link token of a delivery; one of them is empty for `access_code` (no link) and `activation` (no code). */
export interface JobSecrets {
  code: string;
  linkToken: string;
}

/** Idempotent job id: a second enqueue of the same delivery is ignored while the job exists. */
export function jobIdFor(deliveryId: string): string {
  if (!/^[A-Za-z0-9_.-]{1,128}$/.test(deliveryId)) throw new Error("deliveryId must be 1-128 of [A-Za-z0-9_.-]");
  return `confirm-${deliveryId}`;
}

/** BullMQ joins `prefix:queue` itself, so our REDIS_PREFIX ("gh:") loses its trailing ':'. */
export function bullPrefix(redisPrefix: string | undefined): string {
  const trimmed = (redisPrefix ?? "gh:").replace(/:+$/, "");
  return trimmed === "" ? "gh" : trimmed;
}

const SECRETS_BOX = "confirmation-job";

/** Encrypts the code and link token, bound to the delivery id (AAD) so they cannot be moved to another job. */
export function sealJobSecrets(keys: KeyRing, deliveryId: string, secrets: JobSecrets): string {
  return keys.box(SECRETS_BOX).seal(JSON.stringify({ code: secrets.code, linkToken: secrets.linkToken }), deliveryId);
}

export function openJobSecrets(keys: KeyRing, job: Pick<ConfirmationJob, "deliveryId" | "sealedSecrets">): JobSecrets {
  const parsed = JSON.parse(keys.box(SECRETS_BOX).open(job.sealedSecrets, job.deliveryId)) as Partial<JobSecrets>;
  if (typeof parsed.code !== "string" || typeof parsed.linkToken !== "string")
    throw new Error("sealed secrets malformed");
  return { code: parsed.code, linkToken: parsed.linkToken };
}
