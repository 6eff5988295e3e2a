import type { Queryable } from "@gatehouse/db";

export interface NewAccessCodeRow {
  id: string;
  userId: string;
  key: "email" | "phone_number";
  value: string;
  codeHash: string;
  clientId: string;
  entrypointId: string;
  ttlSeconds: number;
}

/** A live sign-in code whose try was just spent. */
export interface SpentAccessCode {
  id: string;
  codeHash: string;
  createdAt: Date;
}

/** users.access_codes. A live code is unused, not superseded, not expired, with tries left. */
export interface AccessCodeStore {
  insert(c: NewAccessCodeRow): Promise<void>;
  /** Spends one try of every live code of (user, key) and returns them (committed on its own: wrong guesses count). */
  spendTries(userId: string, key: string, maxAttempts: number): Promise<SpentAccessCode[]>;
  /** Marks it used: true for the one caller that did. */
  use(id: string): Promise<boolean>;
  /** The other live codes of (user, key) stop working. */
  supersedeLive(userId: string, key: string): Promise<void>;
  /** Erasure: the user's codes go (each holds the identifier value it was sent to). */
  erase(userId: string): Promise<void>;
}

const LIVE = "used_at IS NULL AND superseded_at IS NULL AND expires_at > now() AND attempts < $3";

export function accessCodeStore(q: Queryable): AccessCodeStore {
  return {
    async insert(c) {
      await q.query(
        `INSERT INTO users.access_codes (id, user_id, key, value, code_hash, client_id, entrypoint_id, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8))`,
        [c.id, c.userId, c.key, c.value, c.codeHash, c.clientId, c.entrypointId, c.ttlSeconds],
      );
    },

    async spendTries(userId, key, maxAttempts) {
      const r = await q.query<{ id: string; code_hash: string; created_at: Date }>(
        `UPDATE users.access_codes SET attempts = attempts + 1 WHERE user_id = $1 AND key = $2 AND ${LIVE} RETURNING id, code_hash, created_at`,
        [userId, key, maxAttempts],
      );
      return r.rows.map((row) => ({ id: row.id, codeHash: row.code_hash, createdAt: row.created_at }));
    },

    async use(id) {
      const used = await q.query(
        `UPDATE users.access_codes SET used_at = now() WHERE id = $1 AND used_at IS NULL AND superseded_at IS NULL RETURNING id`,
        [id],
      );
      return used.rowCount > 0;
    },

    async supersedeLive(userId, key) {
      await q.query(
        `UPDATE users.access_codes SET superseded_at = now() WHERE user_id = $1 AND key = $2 AND used_at IS NULL AND superseded_at IS NULL`,
        [userId, key],
      );
    },

    async erase(userId) {
      await q.query(`DELETE FROM users.access_codes WHERE user_id = $1`, [userId]);
    },
  };
}
