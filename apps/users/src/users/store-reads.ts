import type { Queryable } from "@gatehouse/db";
import type { IdKey } from "./identifiers.ts";
import type { UserRecord } from "./record.ts";
import { toRecord, USER_SELECT, type UserSqlRow } from "./user-row.ts";

/** Reads of users and their identifiers. */
export interface UserReads {
  /** With `forUpdate` (in a transaction), the row stays locked until it ends. */
  byId(id: string, forUpdate?: boolean): Promise<UserRecord | undefined>;
  byPulseId(pulseId: string): Promise<UserRecord | undefined>;
  /** The user whose active value of `key` is `value` (canonical form). */
  byIdentifier(key: IdKey, value: string): Promise<UserRecord | undefined>;
  /** The id of the user whose active value of `key` is `value`, if any. */
  holderOf(key: IdKey, value: string): Promise<string | undefined>;
  /** Locks the user's row until the transaction ends (serializes concurrent changes of one user); false when there is none. */
  lock(userId: string): Promise<boolean>;
  /** Locks one identifier row until the transaction ends (one confirmation of it at a time). */
  lockIdentifier(userId: string, key: IdKey): Promise<void>;
  /** Where the user registered (the data export). */
  registration(userId: string): Promise<{ clientId: string | null; entrypointId: string | null } | undefined>;
}

export function userReads(q: Queryable): UserReads {
  return {
    async byId(id, forUpdate = false) {
      const lock = forUpdate ? " FOR UPDATE" : "";
      const r = await q.query<UserSqlRow>(
        `SELECT ${USER_SELECT} FROM users.users u WHERE u.id = $1 AND u.deleted_at IS NULL${lock}`,
        [id],
      );
      return toRecord(r.rows[0]);
    },

    async byPulseId(pulseId) {
      const r = await q.query<UserSqlRow>(
        `SELECT ${USER_SELECT} FROM users.users u WHERE u.pulse_id = $1 AND u.deleted_at IS NULL`,
        [pulseId],
      );
      return toRecord(r.rows[0]);
    },

    async byIdentifier(key, value) {
      const r = await q.query<UserSqlRow>(
        `SELECT ${USER_SELECT}
           FROM users.identifiers i JOIN users.users u ON u.id = i.user_id
          WHERE i.key = $1 AND i.value = $2 AND u.deleted_at IS NULL`,
        [key, value],
      );
      return toRecord(r.rows[0]);
    },

    async holderOf(key, value) {
      const r = await q.query<{ user_id: string }>(
        `SELECT user_id FROM users.identifiers WHERE key = $1 AND value = $2`,
        [key, value],
      );
      return r.rows[0]?.user_id;
    },

    async lock(userId) {
      const r = await q.query(`SELECT id FROM users.users WHERE id = $1 AND deleted_at IS NULL FOR UPDATE`, [userId]);
      return r.rows.length > 0;
    },

    async lockIdentifier(userId, key) {
      await q.query(`SELECT 1 FROM users.identifiers WHERE user_id = $1 AND key = $2 FOR UPDATE`, [userId, key]);
    },

    async registration(userId) {
      const r = await q.query<{ registered_client_id: string | null; registered_entrypoint: string | null }>(
        "SELECT registered_client_id, registered_entrypoint FROM users.users WHERE id = $1",
        [userId],
      );
      const row = r.rows[0];
      return row && { clientId: row.registered_client_id, entrypointId: row.registered_entrypoint };
    },
  };
}
