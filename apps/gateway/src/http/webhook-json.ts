import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import type { Webhook, WebhookDelivery } from "@gatehouse/proto";

const iso = (t: Timestamp | undefined) => (t ? timestampDate(t).toISOString() : null);

/** A webhook endpoint as operators see it (never its secret). */
export const webhookToJson = (w: Webhook): Record<string, unknown> => ({
  id: w.id,
  url: w.url,
  events: w.events,
  application: w.application || null,
  description: w.description,
  enabled: w.enabled,
  disabledReason: w.disabledReason || null,
  created: iso(w.createTime),
  updated: iso(w.updateTime),
  previousSecretExpires: iso(w.previousSecretExpireTime),
});

/** One delivery of the log: the event, its status, attempts, the last answer and the next try. */
export const deliveryToJson = (d: WebhookDelivery): Record<string, unknown> => ({
  id: d.id,
  eventId: d.eventId,
  type: d.eventType,
  status: d.status,
  attempts: d.attempts,
  lastResponseCode: d.lastResponseCode || null,
  lastError: d.lastError || null,
  nextAttempt: iso(d.nextAttemptTime),
  created: iso(d.createTime),
  updated: iso(d.updateTime),
});
