import type { Queryable } from "@gatehouse/db";
import type { IdKey } from "./identifiers.ts";

export interface IdentifierRow {
  key: IdKey;
  value: string;
  confirmed: boolean;
  pendingValue: string | null;
  pendingRequestedAt: Date | null;
}

export type JsonMap = Record<string, unknown>;

export interface UserRecord {
  id: string;
  pulseId: string;
  passwordHash: string | null;
  datas: JsonMap;
  addresses: JsonMap;
  assertions: JsonMap;
  createdAt: Date;
  updatedAt: Date;
  version: number;
  identifiers: IdentifierRow[];
}

export interface NewUser {
  id: string;
  pulseId: string;
  passwordHash: string | null;
  datas: JsonMap;
  addresses: JsonMap;
  assertions: JsonMap;
  clientId: string;
  entrypointId: string;
}

interface UserSqlRow {
  id: string;
  pulse_id: string;
  password_hash: string | null;
  datas: JsonMap;
  addresses: JsonMap;
  assertions: JsonMap;
  created_at: Date;
  updated_at: Date;
  version: number;
}

interface IdentifierSqlRow {
  user_id: string;
  key: IdKey;
  value: string;
  confirmed: boolean;
  pending_value: string | null;
  pending_requested_at: Date | null;
}

/** True for a PostgreSQL unique violation (pg and PGlite both carry SQLSTATE 23505). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string } | null;
  return e?.code === "23505" && (constraint === undefined || e.constraint === constraint);
}

export const IDENTIFIER_UNIQUE = "identifiers_key_value_unique";

const USER_COLUMNS = "id, pulse_id, password_hash, datas, addresses, assertions, created_at, updated_at, version";

/** Users and their identifiers in the `users` schema; works inside or outside a transaction. */
export function userStore(q: Queryable) {
  async function withIdentifiers(row: UserSqlRow | undefined): Promise<UserRecord | undefined> {
    if (!row) return undefined;
    const ids = await q.query<IdentifierSqlRow>(
      `SELECT user_id, key, value, confirmed, pending_value, pending_requested_at
         FROM users.identifiers WHERE user_id = $1 ORDER BY key`,
      [row.id],
    );
    return {
      id: row.id,
      pulseId: row.pulse_id,
      passwordHash: row.password_hash,
      datas: row.datas ?? {},
      addresses: row.addresses ?? {},
      assertions: row.assertions ?? {},
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      version: row.version,
      identifiers: ids.rows.map((i) => ({
        key: i.key,
        value: i.value,
        confirmed: i.confirmed,
        pendingValue: i.pending_value,
        pendingRequestedAt: i.pending_requested_at,
      })),
    };
  }

  return {
    async insertUser(u: NewUser): Promise<void> {
      await q.query(
        `INSERT INTO users.users (id, pulse_id, password_hash, datas, addresses, assertions, registered_client_id, registered_entrypoint)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [u.id, u.pulseId, u.passwordHash, JSON.stringify(u.datas), JSON.stringify(u.addresses), JSON.stringify(u.assertions), u.clientId, u.entrypointId],
      );
    },

    /** Throws a unique violation (IDENTIFIER_UNIQUE) when another user holds the value. */
    async insertIdentifier(userId: string, key: IdKey, value: string, confirmed: boolean): Promise<void> {
      await q.query(
        `INSERT INTO users.identifiers (user_id, key, value, confirmed, confirmed_at)
         VALUES ($1, $2, $3, $4, CASE WHEN $4 THEN now() END)`,
        [userId, key, value, confirmed],
      );
    },

    async byId(id: string): Promise<UserRecord | undefined> {
      const r = await q.query<UserSqlRow>(`SELECT ${USER_COLUMNS} FROM users.users WHERE id = $1 AND deleted_at IS NULL`, [id]);
      return withIdentifiers(r.rows[0]);
    },

    async byPulseId(pulseId: string): Promise<UserRecord | undefined> {
      const r = await q.query<UserSqlRow>(`SELECT ${USER_COLUMNS} FROM users.users WHERE pulse_id = $1 AND deleted_at IS NULL`, [
        pulseId,
      ]);
      return withIdentifiers(r.rows[0]);
    },

    /** The user whose active value of `key` is `value` (canonical form). */
    async byIdentifier(key: IdKey, value: string): Promise<UserRecord | undefined> {
      const r = await q.query<UserSqlRow>(
        `SELECT ${USER_COLUMNS.split(", ").map((c) => `u.${c}`).join(", ")}
           FROM users.identifiers i JOIN users.users u ON u.id = i.user_id
          WHERE i.key = $1 AND i.value = $2 AND u.deleted_at IS NULL`,
        [key, value],
      );
      return withIdentifiers(r.rows[0]);
    },

    async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
      await q.query(`UPDATE users.users SET password_hash = $2 WHERE id = $1`, [userId, passwordHash]);
    },

    /** Marks the active value confirmed; false when the identifier no longer has that value. */
    async confirmActive(userId: string, key: IdKey, value: string): Promise<boolean> {
      const r = await q.query(
        `UPDATE users.identifiers SET confirmed = true, confirmed_at = now(), updated_at = now()
          WHERE user_id = $1 AND key = $2 AND value = $3`,
        [userId, key, value],
      );
      return r.rowCount > 0;
    },

    /**
     * Swaps a confirmed pending replacement in; false when that value is no
     * longer pending. Throws a unique violation when another user took it meanwhile.
     */
    async promotePending(userId: string, key: IdKey, value: string): Promise<boolean> {
      const r = await q.query(
        `UPDATE users.identifiers
            SET value = pending_value, confirmed = true, confirmed_at = now(),
                pending_value = NULL, pending_requested_at = NULL, updated_at = now()
          WHERE user_id = $1 AND key = $2 AND pending_value = $3`,
        [userId, key, value],
      );
      return r.rowCount > 0;
    },

    async touch(userId: string): Promise<void> {
      await q.query(`UPDATE users.users SET updated_at = now(), version = version + 1 WHERE id = $1`, [userId]);
    },
  };
}

export type UserStore = ReturnType<typeof userStore>;
