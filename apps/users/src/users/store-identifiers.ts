import type { Queryable } from "@gatehouse/db";
import type { IdKey } from "./identifiers.ts";

/** Writes of identifier rows. */
export interface IdentifierWrites {
  /** Throws a unique violation (IDENTIFIER_UNIQUE) when another user holds the value. */
  insertIdentifier(userId: string, key: IdKey, value: string, confirmed: boolean): Promise<void>;
  /** Marks the active value confirmed; false when the identifier no longer has that value. */
  confirmActive(userId: string, key: IdKey, value: string): Promise<boolean>;
  /** Swaps a confirmed pending replacement in; false when that value is no longer pending. Throws a unique violation when another user took it meanwhile. */
  promotePending(userId: string, key: IdKey, value: string): Promise<boolean>;
  /** A new active value, unconfirmed. Throws a unique violation when another user holds it. */
  replaceIdentifier(userId: string, key: IdKey, value: string): Promise<void>;
  /** Sets (or with null clears) the replacement awaiting confirmation. */
  setPending(userId: string, key: IdKey, value: string | null): Promise<void>;
  deleteIdentifier(userId: string, key: IdKey): Promise<void>;
}

export function identifierWrites(q: Queryable): IdentifierWrites {
  return {
    async insertIdentifier(userId, key, value, confirmed) {
      await q.query(
        `INSERT INTO users.identifiers (user_id, key, value, confirmed, confirmed_at)
         VALUES ($1, $2, $3, $4, CASE WHEN $4 THEN now() END)`,
        [userId, key, value, confirmed],
      );
    },

    async confirmActive(userId, key, value) {
      const r = await q.query(
        `UPDATE users.identifiers SET confirmed = true, confirmed_at = now(), updated_at = now()
          WHERE user_id = $1 AND key = $2 AND value = $3`,
        [userId, key, value],
      );
      return r.rowCount > 0;
    },

    async promotePending(userId, key, value) {
      const r = await q.query(
        `UPDATE users.identifiers
            SET value = pending_value, confirmed = true, confirmed_at = now(),
                pending_value = NULL, pending_requested_at = NULL, updated_at = now()
          WHERE user_id = $1 AND key = $2 AND pending_value = $3`,
        [userId, key, value],
      );
      return r.rowCount > 0;
    },

    async replaceIdentifier(userId, key, value) {
      await q.query(
        `UPDATE users.identifiers SET value = $3, confirmed = false, confirmed_at = NULL,
                pending_value = NULL, pending_requested_at = NULL, updated_at = now()
          WHERE user_id = $1 AND key = $2`,
        [userId, key, value],
      );
    },

    async setPending(userId, key, value) {
      await q.query(
        `UPDATE users.identifiers SET pending_value = $3, pending_requested_at = CASE WHEN $3::text IS NULL THEN NULL ELSE now() END,
                updated_at = now()
          WHERE user_id = $1 AND key = $2`,
        [userId, key, value],
      );
    },

    async deleteIdentifier(userId, key) {
      await q.query(`DELETE FROM users.identifiers WHERE user_id = $1 AND key = $2`, [userId, key]);
    },
  };
}
