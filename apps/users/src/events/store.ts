import type { Queryable } from "@gatehouse/db";
import { userEvent, type WebhookEvent } from "@gatehouse/events";

type UserEventType = Parameters<typeof userEvent>[0];

/** users.events (migration 010): the outbox, written with the change's Queryable so the event commits with it. */
export interface EventStore {
  record(event: WebhookEvent): Promise<void>;
  /**
   * A user event: ids only (and for user.updated the names of the changed
   * fields). Without an application (an operator's action) it names the one
   * the user registered with, so an endpoint filtered on that application
   * hears of its users' locks and erasures.
   */
  user(
    type: UserEventType,
    application: string | null | undefined,
    user: { id: string; pulseId: string },
    changed?: string[],
  ): Promise<void>;
}

export function eventStore(q: Queryable): EventStore {
  const insert = async (e: WebhookEvent, userId: string | null) => {
    await q.query(
      `INSERT INTO users.events (id, type, application, data, created_at)
       VALUES ($1, $2, COALESCE($3, (SELECT registered_client_id FROM users.users WHERE id = $6)), $4::jsonb, $5)`,
      [e.id, e.type, e.application, JSON.stringify(e.data), e.time, userId],
    );
  };
  return {
    record: (e) => insert(e, null),
    user: (type, application, user, changed) => insert(userEvent(type, application, user, changed), user.id),
  };
}

/** The relay's side of the outbox: the oldest rows not handed over yet, and marking them handed over. */
export function relayStore(q: Queryable) {
  return {
    async unrelayed(limit: number): Promise<{ seq: string; event: WebhookEvent }[]> {
      const { rows } = await q.query<{
        seq: string;
        id: string;
        type: WebhookEvent["type"];
        application: string | null;
        data: Record<string, unknown> | string;
        created_at: Date;
      }>(
        `SELECT seq::text AS seq, id, type, application, data, created_at FROM users.events
          WHERE relayed_at IS NULL ORDER BY seq LIMIT $1`,
        [limit],
      );
      return rows.map((r) => ({
        seq: r.seq,
        event: {
          id: r.id,
          type: r.type,
          time: new Date(r.created_at).toISOString(),
          application: r.application,
          data: typeof r.data === "string" ? (JSON.parse(r.data) as Record<string, unknown>) : r.data,
        },
      }));
    },
    async markRelayed(ids: string[]): Promise<void> {
      await q.query("UPDATE users.events SET relayed_at = now() WHERE id = ANY($1::text[])", [ids]);
    },
    /** Relayed rows are the registry's now: kept a day (to look into), then removed. */
    async prune(): Promise<void> {
      await q.query("DELETE FROM users.events WHERE relayed_at < now() - interval '1 day'");
    },
  };
}
