import type { Queryable } from "@gatehouse/db";
import { userEvent, type WebhookEvent } from "@gatehouse/events";
import type { UserRecord } from "../users/record.ts";
import { PROFILE_SET, profileParams, type ProfileChange } from "../users/store-writes.ts";
import { toRecord, USER_SELECT, type UserSqlRow } from "../users/user-row.ts";

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
  /**
   * A login admitted (the account neither locked nor erased: its last login
   * set) and its user.login event, in one statement: one round trip instead
   * of a transaction's four, and as atomic. Returns the user's pulse id;
   * undefined when not admitted (then no event).
   */
  admitLogin(userId: string, application: string): Promise<string | undefined>;
  /**
   * A change of the user's profile (UserWrites.saveProfile's), its events
   * (in their order) and the user as read after it, in one statement: one
   * round trip instead of an INSERT per event, the UPDATE and a read-back.
   * An event without an application names the one the user registered with.
   */
  saveProfile(userId: string, change: ProfileChange, events: WebhookEvent[]): Promise<UserRecord | undefined>;
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
    async admitLogin(userId, application) {
      // The event's shape is userEvent's; only its pulse_id comes from the admitted row.
      const e = userEvent("user.login", application, { id: userId, pulseId: "" });
      const { rows } = await q.query<{ pulse_id: string }>(
        `WITH admitted AS (
           UPDATE users.users SET last_login_at = now() WHERE id = $1 AND locked_at IS NULL AND deleted_at IS NULL
           RETURNING pulse_id, registered_client_id
         ), recorded AS (
           INSERT INTO users.events (id, type, application, data, created_at)
           SELECT $2::text, $3::text, COALESCE($4::text, registered_client_id),
                  jsonb_set($5::jsonb, '{user,pulse_id}', to_jsonb(pulse_id)), $6::timestamptz
             FROM admitted
         )
         SELECT pulse_id FROM admitted`,
        [userId, e.id, e.type, e.application, JSON.stringify(e.data), e.time],
      );
      return rows[0]?.pulse_id;
    },
    async saveProfile(userId, change, events) {
      // The main query's subqueries see the identifiers as earlier statements of the transaction left them;
      // the row's own columns come from RETURNING (the statement's snapshot predates its UPDATE).
      const { rows } = await q.query<UserSqlRow>(
        `WITH u AS (
           UPDATE users.users SET ${PROFILE_SET} WHERE id = $1 RETURNING *
         ), recorded AS (
           INSERT INTO users.events (id, type, application, data, created_at)
           SELECT ev.e->>'id', ev.e->>'type', COALESCE(ev.e->>'application', u.registered_client_id), ev.e->'data',
                  (ev.e->>'time')::timestamptz
             FROM u, jsonb_array_elements($6::jsonb) WITH ORDINALITY AS ev(e, n)
            ORDER BY ev.n
         )
         SELECT ${USER_SELECT} FROM u`,
        [...profileParams(userId, change), JSON.stringify(events)],
      );
      return toRecord(rows[0]);
    },
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
