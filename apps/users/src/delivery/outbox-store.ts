import type { Queryable } from "@gatehouse/db";
import type { ConfirmationJob, DeliveryStore, StoredDelivery } from "@gatehouse/jobs";

/** Dead letters are kept as long as BullMQ keeps its failed set. */
const DEAD_LETTER_DAYS = 14;

/** users.delivery_outbox: the durable side of the embedded in-process delivery queue. */
export function deliveryOutboxStore(db: Queryable): DeliveryStore {
  return {
    async add(job: ConfirmationJob, enqueuedAt: number, tx?: Queryable) {
      await (tx ?? db).query(
        `INSERT INTO users.delivery_outbox (delivery_id, job, enqueued_at) VALUES ($1, $2, to_timestamp($3 / 1000.0))
         ON CONFLICT (delivery_id) DO NOTHING`,
        [job.deliveryId, JSON.stringify(job), enqueuedAt],
      );
    },

    async pending(): Promise<StoredDelivery[]> {
      await db.query(`DELETE FROM users.delivery_outbox WHERE failed_at < now() - make_interval(days => $1)`, [
        DEAD_LETTER_DAYS,
      ]);
      const r = await db.query<{ job: ConfirmationJob | string; enqueued_ms: number; attempts_made: number }>(
        `SELECT job, floor(extract(epoch FROM enqueued_at) * 1000)::bigint AS enqueued_ms, attempts_made
           FROM users.delivery_outbox WHERE failed_at IS NULL ORDER BY enqueued_at`,
      );
      return r.rows.map((row) => ({
        job: typeof row.job === "string" ? (JSON.parse(row.job) as ConfirmationJob) : row.job,
        enqueuedAt: Number(row.enqueued_ms),
        attemptsMade: row.attempts_made,
      }));
    },

    async finish(deliveryId: string) {
      await db.query("DELETE FROM users.delivery_outbox WHERE delivery_id = $1", [deliveryId]);
    },

    async failed(deliveryId: string, attemptsMade: number, reason: string, final: boolean) {
      await db.query(
        `UPDATE users.delivery_outbox SET attempts_made = $2, last_error = $3, failed_at = CASE WHEN $4 THEN now() ELSE NULL END
          WHERE delivery_id = $1`,
        [deliveryId, attemptsMade, reason.slice(0, 500), final],
      );
    },
  };
}
