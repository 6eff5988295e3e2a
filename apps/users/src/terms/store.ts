import type { Queryable } from "@gatehouse/db";

/** One answer to record: the user accepted (true) or declined (false) this version. */
export interface Answer {
  key: string;
  version: string;
  value: boolean;
}

/** Where an answer came from: the application (client id), the device (source.id) and the route. */
export interface AnswerOrigin {
  clientId: string;
  sourceId: string;
  via: "register" | "login" | "update" | "page" | "import";
}

/** An answer as the history keeps it (the data export). */
export interface RecordedAnswer extends Answer, AnswerOrigin {
  answeredAt: Date;
}

/** users.assertion_acceptances: every answer to a legal assertion, declines too (append-only history). */
export interface AcceptanceStore {
  append(userId: string, answers: readonly Answer[], origin: AnswerOrigin, at: Date): Promise<void>;
  history(userId: string): Promise<RecordedAnswer[]>;
  erase(userId: string): Promise<void>;
}

export function acceptanceStore(q: Queryable): AcceptanceStore {
  return {
    async append(userId, answers, origin, at) {
      for (const a of answers) {
        await q.query(
          `INSERT INTO users.assertion_acceptances (user_id, key, version, value, client_id, source_id, via, answered_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [userId, a.key, a.version, a.value, origin.clientId, origin.sourceId, origin.via, at],
        );
      }
    },

    async history(userId) {
      const r = await q.query<{
        key: string;
        version: string;
        value: boolean;
        client_id: string;
        source_id: string;
        via: AnswerOrigin["via"];
        answered_at: Date;
      }>(
        "SELECT key, version, value, client_id, source_id, via, answered_at FROM users.assertion_acceptances WHERE user_id = $1 ORDER BY answered_at, id",
        [userId],
      );
      return r.rows.map((row) => ({
        key: row.key,
        version: row.version,
        value: row.value,
        clientId: row.client_id,
        sourceId: row.source_id,
        via: row.via,
        answeredAt: row.answered_at,
      }));
    },

    async erase(userId) {
      await q.query(`DELETE FROM users.assertion_acceptances WHERE user_id = $1`, [userId]);
    },
  };
}
