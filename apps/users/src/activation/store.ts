import type { Queryable } from "@gatehouse/db";

/** An activation link as stored (its token as a MAC only). */
export interface ActivationRow {
  id: string;
  userId: string;
  key: "email" | "phone_number";
  value: string;
  clientId: string;
  entrypointId: string;
}

/** users.activations. A live link is unused, not superseded and not expired. */
export interface ActivationStore {
  /** Stores a link that works `ttlSeconds`; when it expires. */
  insert(a: ActivationRow & { tokenHash: string; ttlSeconds: number }): Promise<Date>;
  liveByTokenHash(tokenHash: string): Promise<ActivationRow | undefined>;
  /** The user's latest link (live or not): where a resend goes. */
  latest(userId: string): Promise<Omit<ActivationRow, "id" | "userId"> | undefined>;
  /** Marks it used: true for the one caller that did. */
  use(id: string): Promise<boolean>;
  /** Every live link of the user stops working. */
  supersedeAll(userId: string): Promise<void>;
  /** Erasure: the user's links go (each holds the identifier value it was sent to). */
  erase(userId: string): Promise<void>;
}

interface Row {
  id: string;
  user_id: string;
  key: "email" | "phone_number";
  value: string;
  client_id: string;
  entrypoint_id: string;
}

const toActivation = (r: Row): ActivationRow => ({
  id: r.id,
  userId: r.user_id,
  key: r.key,
  value: r.value,
  clientId: r.client_id,
  entrypointId: r.entrypoint_id,
});

export function activationStore(q: Queryable): ActivationStore {
  return {
    async insert(a) {
      const { rows } = await q.query<{ expires_at: Date }>(
        `INSERT INTO users.activations (id, user_id, key, value, token_hash, client_id, entrypoint_id, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8))
         RETURNING expires_at`,
        [a.id, a.userId, a.key, a.value, a.tokenHash, a.clientId, a.entrypointId, a.ttlSeconds],
      );
      return new Date(rows[0]!.expires_at);
    },

    async liveByTokenHash(tokenHash) {
      const r = await q.query<Row>(
        `SELECT id, user_id, key, value, client_id, entrypoint_id FROM users.activations
          WHERE token_hash = $1 AND used_at IS NULL AND superseded_at IS NULL AND expires_at > now()`,
        [tokenHash],
      );
      return r.rows[0] && toActivation(r.rows[0]);
    },

    async latest(userId) {
      const r = await q.query<Row>(
        `SELECT key, value, client_id, entrypoint_id FROM users.activations WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1`,
        [userId],
      );
      const row = r.rows[0];
      return row && { key: row.key, value: row.value, clientId: row.client_id, entrypointId: row.entrypoint_id };
    },

    async use(id) {
      const used = await q.query(
        `UPDATE users.activations SET used_at = now() WHERE id = $1 AND used_at IS NULL AND superseded_at IS NULL RETURNING id`,
        [id],
      );
      return used.rowCount > 0;
    },

    async supersedeAll(userId) {
      await q.query(
        `UPDATE users.activations SET superseded_at = now() WHERE user_id = $1 AND used_at IS NULL AND superseded_at IS NULL`,
        [userId],
      );
    },

    async erase(userId) {
      await q.query(`DELETE FROM users.activations WHERE user_id = $1`, [userId]);
    },
  };
}
