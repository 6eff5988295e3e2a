import type { Queryable } from "@gatehouse/db";

/** A webhook endpoint as stored (the secrets sealed). */
export interface WebhookRow {
  id: string;
  url: string;
  events: string[];
  application: string | null;
  description: string;
  enabled: boolean;
  disabledReason: string | null;
  secretSealed: string;
  previousSealed: string | null;
  previousUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type WebhookFields = Pick<WebhookRow, "url" | "events" | "application" | "description" | "enabled">;

const COLUMNS = `id, url, events, application, description, enabled, disabled_reason, secret_sealed,
  previous_sealed, previous_until, created_at, updated_at`;

interface Raw {
  id: string;
  url: string;
  events: string[];
  application: string | null;
  description: string;
  enabled: boolean;
  disabled_reason: string | null;
  secret_sealed: string;
  previous_sealed: string | null;
  previous_until: Date | null;
  created_at: Date;
  updated_at: Date;
}

const toRow = (r: Raw): WebhookRow => ({
  id: r.id,
  url: r.url,
  events: r.events,
  application: r.application,
  description: r.description,
  enabled: r.enabled,
  disabledReason: r.disabled_reason,
  secretSealed: r.secret_sealed,
  previousSealed: r.previous_sealed,
  previousUntil: r.previous_until,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/** registry.webhooks (migration 004). */
export function webhookStore(q: Queryable) {
  return {
    async insert(id: string, f: WebhookFields, secretSealed: string): Promise<WebhookRow> {
      const { rows } = await q.query<Raw>(
        `INSERT INTO registry.webhooks (id, url, events, application, description, enabled, secret_sealed)
         VALUES ($1, $2, $3::text[], $4, $5, $6, $7) RETURNING ${COLUMNS}`,
        [id, f.url, f.events, f.application, f.description, f.enabled, secretSealed],
      );
      return toRow(rows[0]!);
    },

    async get(id: string, forUpdate = false): Promise<WebhookRow | undefined> {
      const { rows } = await q.query<Raw>(
        `SELECT ${COLUMNS} FROM registry.webhooks WHERE id = $1${forUpdate ? " FOR UPDATE" : ""}`,
        [id],
      );
      return rows[0] && toRow(rows[0]);
    },

    /** Newest first; `after` is the id of the previous page's last row. */
    async list(after: string | undefined, limit: number): Promise<WebhookRow[]> {
      const { rows } = await q.query<Raw>(
        `SELECT ${COLUMNS} FROM registry.webhooks WHERE $1::text IS NULL OR id < $1 ORDER BY id DESC LIMIT $2`,
        [after ?? null, limit],
      );
      return rows.map(toRow);
    },

    /** Rewrites the fields; switching an endpoint on clears why it was off. */
    async update(id: string, f: WebhookFields): Promise<WebhookRow> {
      const { rows } = await q.query<Raw>(
        `UPDATE registry.webhooks SET url = $2, events = $3::text[], application = $4, description = $5, enabled = $6,
                disabled_reason = CASE WHEN $6 THEN NULL ELSE disabled_reason END, updated_at = now()
          WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, f.url, f.events, f.application, f.description, f.enabled],
      );
      return toRow(rows[0]!);
    },

    async rotate(id: string, secretSealed: string, previousSealed: string, graceMs: number): Promise<WebhookRow> {
      const { rows } = await q.query<Raw>(
        `UPDATE registry.webhooks SET secret_sealed = $2, previous_sealed = $3,
                previous_until = now() + make_interval(secs => $4::double precision / 1000), updated_at = now()
          WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, secretSealed, previousSealed, graceMs],
      );
      return toRow(rows[0]!);
    },

    async remove(id: string): Promise<void> {
      await q.query("DELETE FROM registry.webhooks WHERE id = $1", [id]);
    },

    /** A 410 answer: the endpoint is gone; it gets nothing more until an operator switches it on. */
    async disableGone(id: string): Promise<void> {
      await q.query(
        "UPDATE registry.webhooks SET enabled = false, disabled_reason = 'gone', updated_at = now() WHERE id = $1",
        [id],
      );
    },
  };
}

export type WebhookStore = ReturnType<typeof webhookStore>;
