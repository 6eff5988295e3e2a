import type { Queryable } from "@gatehouse/db";

export type DeliveryStatus = "pending" | "delivered" | "failed";

export interface DeliveryRow {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  lastResponseCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A claimed delivery with what its attempt needs. */
export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  attempts: number;
  /** Epoch ms of the first attempt (the retry window counts from it). */
  firstAttemptAt: number | null;
  body: string;
  url: string;
  secretSealed: string;
  previousSealed: string | null;
}

/** How an attempt ended, as the worker decided it. */
export type Outcome =
  | { kind: "delivered"; code: number }
  | { kind: "retry"; code: number | null; error: string | null; at: number }
  | { kind: "failed"; code: number | null; error: string | null };

const COLUMNS = `id, webhook_id, event_id, event_type, status, attempts, last_response_code, last_error,
  next_attempt_at, created_at, updated_at`;

interface Raw {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  last_response_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const toRow = (r: Raw): DeliveryRow => ({
  id: r.id,
  webhookId: r.webhook_id,
  eventId: r.event_id,
  eventType: r.event_type,
  status: r.status,
  attempts: r.attempts,
  lastResponseCode: r.last_response_code,
  lastError: r.last_error,
  nextAttemptAt: r.next_attempt_at && new Date(r.next_attempt_at),
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/** registry.webhook_deliveries (migration 004): the queue of the delivery worker and the endpoints' log. */
export function deliveryStore(q: Queryable) {
  return {
    /**
     * Leases up to `limit` due deliveries of enabled endpoints (but those of
     * `skipWebhooks`, busy enough here), oldest due first; rows another
     * replica holds are skipped. A lease that lapses (the
     * process died mid-attempt) makes the row due again.
     */
    async claim(limit: number, leaseMs: number, skipWebhooks: string[] = []): Promise<ClaimedDelivery[]> {
      const { rows } = await q.query<{
        id: string;
        webhook_id: string;
        event_id: string;
        attempts: number;
        first_ms: string | null;
        body: unknown;
        url: string;
        secret_sealed: string;
        previous_sealed: string | null;
      }>(
        `WITH due AS (
           SELECT d.id FROM registry.webhook_deliveries d JOIN registry.webhooks w ON w.id = d.webhook_id
            WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND w.enabled
              AND (d.lease_until IS NULL OR d.lease_until < now()) AND NOT (d.webhook_id = ANY($3::text[]))
            ORDER BY d.next_attempt_at LIMIT $1 FOR UPDATE OF d SKIP LOCKED)
         UPDATE registry.webhook_deliveries d
            SET lease_until = now() + make_interval(secs => $2::double precision / 1000)
           FROM due, registry.webhooks w, registry.events e
          WHERE d.id = due.id AND w.id = d.webhook_id AND e.id = d.event_id
         RETURNING d.id, d.webhook_id, d.event_id, d.attempts,
                   CASE WHEN d.attempts = 0 THEN NULL ELSE floor(extract(epoch FROM d.first_attempt_at) * 1000)::bigint END AS first_ms,
                   e.body, w.url, w.secret_sealed,
                   CASE WHEN w.previous_until > now() THEN w.previous_sealed END AS previous_sealed`,
        [limit, leaseMs, skipWebhooks],
      );
      return rows.map((r) => ({
        id: r.id,
        webhookId: r.webhook_id,
        eventId: r.event_id,
        attempts: r.attempts,
        firstAttemptAt: r.first_ms === null ? null : Number(r.first_ms),
        body: typeof r.body === "string" ? r.body : JSON.stringify(r.body),
        url: r.url,
        secretSealed: r.secret_sealed,
        previousSealed: r.previous_sealed,
      }));
    },

    /**
     * Keeps the log `days` long: finished deliveries older than that go, and
     * the events no delivery refers to any more.
     */
    async prune(days: number): Promise<void> {
      await q.query(
        `DELETE FROM registry.webhook_deliveries
          WHERE status <> 'pending' AND updated_at < now() - make_interval(days => $1)`,
        [days],
      );
      await q.query(
        `DELETE FROM registry.events e WHERE e.created_at < now() - make_interval(days => $1)
            AND NOT EXISTS (SELECT 1 FROM registry.webhook_deliveries d WHERE d.event_id = e.id)`,
        [days],
      );
    },

    /** Records an attempt and releases the lease. */
    async record(id: string, o: Outcome): Promise<void> {
      const code = o.code ?? null;
      const error = o.kind === "delivered" ? null : (o.error?.slice(0, 500) ?? null);
      const status: DeliveryStatus = o.kind === "retry" ? "pending" : o.kind;
      await q.query(
        `UPDATE registry.webhook_deliveries
            SET attempts = attempts + 1, first_attempt_at = COALESCE(first_attempt_at, now()),
                status = $2, last_response_code = $3, last_error = $4,
                next_attempt_at = CASE WHEN $5::bigint IS NULL THEN NULL ELSE to_timestamp($5::bigint / 1000.0) END,
                lease_until = NULL, updated_at = now()
          WHERE id = $1`,
        [id, status, code, error, o.kind === "retry" ? o.at : null],
      );
    },

    /** An endpoint's deliveries, newest first; `after` is the previous page's last id. */
    async list(webhookId: string, after: string | undefined, limit: number): Promise<DeliveryRow[]> {
      const { rows } = await q.query<Raw>(
        `SELECT ${COLUMNS} FROM registry.webhook_deliveries
          WHERE webhook_id = $1 AND ($2::text IS NULL OR (created_at, id) <
                (SELECT created_at, id FROM registry.webhook_deliveries WHERE id = $2))
          ORDER BY created_at DESC, id DESC LIMIT $3`,
        [webhookId, after ?? null, limit],
      );
      return rows.map(toRow);
    },

    /**
     * Queues one more try now (a manual retry): a failed delivery gets a new
     * 24-hour window; the event and its id stay.
     */
    async retry(webhookId: string, id: string): Promise<DeliveryRow | undefined> {
      const { rows } = await q.query<Raw>(
        `UPDATE registry.webhook_deliveries
            SET status = 'pending', next_attempt_at = now(), lease_until = NULL,
                first_attempt_at = CASE WHEN status = 'pending' THEN first_attempt_at END, updated_at = now()
          WHERE id = $1 AND webhook_id = $2 RETURNING ${COLUMNS}`,
        [id, webhookId],
      );
      return rows[0] && toRow(rows[0]);
    },
  };
}

export type DeliveryStore = ReturnType<typeof deliveryStore>;
