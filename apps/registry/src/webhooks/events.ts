import type { Queryable } from "@gatehouse/db";
import type { WebhookEvent } from "@gatehouse/events";

/**
 * Stores events and queues a delivery to each enabled endpoint that takes
 * them, with the caller's Queryable: the registry's own changes pass their
 * transaction (the event commits with the change); the users service's
 * relayed events are stored once (a repeated id changes nothing).
 * Returns how many events were new.
 */
export async function publishEvents(q: Queryable, events: WebhookEvent[]): Promise<number> {
  let stored = 0;
  for (const e of events) {
    const { rowCount } = await q.query(
      `INSERT INTO registry.events (id, type, application, body, created_at) VALUES ($1, $2, $3, $4::jsonb, $5)
       ON CONFLICT (id) DO NOTHING`,
      [e.id, e.type, e.application, JSON.stringify(e), e.time],
    );
    if (!rowCount) continue;
    stored++;
    await q.query(
      `INSERT INTO registry.webhook_deliveries (id, webhook_id, event_id, event_type, next_attempt_at)
       SELECT 'dlv_' || replace(gen_random_uuid()::text, '-', ''), w.id, $1, $2, now()
         FROM registry.webhooks w
        WHERE w.enabled AND ('*' = ANY(w.events) OR $2 = ANY(w.events))
          AND (w.application IS NULL OR w.application = $3)`,
      [e.id, e.type, e.application],
    );
  }
  return stored;
}
