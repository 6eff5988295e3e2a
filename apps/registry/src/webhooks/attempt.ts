import { nextAttemptAt, postWebhook, signatureHeaders, type PostOptions, type RetrySchedule } from "@gatehouse/events";
import type { ClaimedDelivery, Outcome } from "./deliveries.ts";
import type { WebhookSecrets } from "./secrets.ts";

export interface AttemptDeps {
  secrets: WebhookSecrets;
  post: PostOptions;
  schedule: RetrySchedule;
}

/**
 * One attempt of one delivery: signed now (the timestamp is the attempt's, the
 * webhook-id the event's, the same on every retry), posted, and judged: 2xx
 * delivered; 410 failed for good (the caller disables the endpoint); anything
 * else, or no answer, retried on the schedule until 24 h after the first try.
 */
export async function attemptDelivery(deps: AttemptDeps, d: ClaimedDelivery): Promise<Outcome & { gone?: boolean }> {
  const secrets = [deps.secrets.open(d.webhookId, d.secretSealed)];
  if (d.previousSealed) secrets.push(deps.secrets.open(d.webhookId, d.previousSealed));
  const now = new Date();
  const result = await postWebhook(d.url, d.body, signatureHeaders(secrets, d.eventId, d.body, now), deps.post);
  const code = "status" in result ? result.status : null;
  if (code !== null && code >= 200 && code < 300) return { kind: "delivered", code };
  if (code === 410) return { kind: "failed", code, error: "410 Gone: endpoint disabled", gone: true };
  const error = "error" in result ? result.error : `HTTP ${code}`;
  const at = nextAttemptAt(d.attempts + 1, d.firstAttemptAt ?? now.getTime(), Date.now(), deps.schedule);
  return at === null ? { kind: "failed", code, error } : { kind: "retry", code, error, at };
}
