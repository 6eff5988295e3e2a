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
  /** Set while an operator has locked the account (login answers ACCOUNT_LOCKED). */
  lockedAt: Date | null;
  /** Registered through an assisted entry point and not activated yet (every login is 412). */
  awaitingActivation: boolean;
  operator: boolean; // role 'operator' (migration 008): console sign-in, TOTP always
  /** TOTP is on (mfa_enabled_at set), as read with the user: the login's MFA step needs no read of its own when off. */
  mfaEnabled?: boolean;
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
  awaitingActivation?: boolean;
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
  locked_at: Date | null;
  awaiting_activation: boolean;
  role: string;
  mfa_enabled_at: Date | null;
  identifiers: IdentifierJson[];
}

/** One identifier as the user's query aggregates it (JSON: the time comes as epoch milliseconds). */
interface IdentifierJson {
  key: IdKey;
  value: string;
  confirmed: boolean;
  pending_value: string | null;
  pending_requested_ms: number | null;
}

/** True for a PostgreSQL unique violation (pg and PGlite both carry SQLSTATE 23505). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string } | null;
  return e?.code === "23505" && (constraint === undefined || e.constraint === constraint);
}

export const IDENTIFIER_UNIQUE = "identifiers_key_value_unique";

const USER_COLUMNS =
  "id, pulse_id, password_hash, datas, addresses, assertions, created_at, updated_at, version, locked_at, awaiting_activation, role, mfa_enabled_at";

/**
 * The user's columns (of the users row aliased `u`) and its identifiers,
 * ordered by key, aggregated in the same query: a login or an update reads
 * its user in one round trip instead of two.
 */
const USER_SELECT = `${USER_COLUMNS.split(", ")
  .map((c) => `u.${c}`)
  .join(", ")},
  (SELECT COALESCE(json_agg(json_build_object('key', ids.key, 'value', ids.value, 'confirmed', ids.confirmed,
            'pending_value', ids.pending_value, 'pending_requested_ms', (extract(epoch FROM ids.pending_requested_at) * 1000)::float8)
            ORDER BY ids.key), '[]'::json)
     FROM users.identifiers ids WHERE ids.user_id = u.id) AS identifiers`;

/** Users and their identifiers in the `users` schema; works inside or outside a transaction. */
export function userStore(q: Queryable) {
  function toUser(row: UserSqlRow | undefined): UserRecord | undefined {
    if (!row) return undefined;
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
      lockedAt: row.locked_at ?? null,
      awaitingActivation: row.awaiting_activation,
      operator: row.role === "operator",
      mfaEnabled: row.mfa_enabled_at !== null,
      identifiers: row.identifiers.map((i) => ({
        key: i.key,
        value: i.value,
        confirmed: i.confirmed,
        pendingValue: i.pending_value,
        pendingRequestedAt: i.pending_requested_ms === null ? null : new Date(i.pending_requested_ms),
      })),
    };
  }

  return {
    async insertUser(u: NewUser): Promise<void> {
      await q.query(
        `INSERT INTO users.users (id, pulse_id, password_hash, datas, addresses, assertions, registered_client_id, registered_entrypoint, awaiting_activation)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          u.id,
          u.pulseId,
          u.passwordHash,
          JSON.stringify(u.datas),
          JSON.stringify(u.addresses),
          JSON.stringify(u.assertions),
          u.clientId,
          u.entrypointId,
          u.awaitingActivation ?? false,
        ],
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

    /** With `forUpdate` (in a transaction), the row stays locked until it ends. */
    async byId(id: string, forUpdate = false): Promise<UserRecord | undefined> {
      const lock = forUpdate ? " FOR UPDATE" : "";
      const r = await q.query<UserSqlRow>(
        `SELECT ${USER_SELECT} FROM users.users u WHERE u.id = $1 AND u.deleted_at IS NULL${lock}`,
        [id],
      );
      return toUser(r.rows[0]);
    },

    async byPulseId(pulseId: string): Promise<UserRecord | undefined> {
      const r = await q.query<UserSqlRow>(
        `SELECT ${USER_SELECT} FROM users.users u WHERE u.pulse_id = $1 AND u.deleted_at IS NULL`,
        [pulseId],
      );
      return toUser(r.rows[0]);
    },

    /** The user whose active value of `key` is `value` (canonical form). */
    async byIdentifier(key: IdKey, value: string): Promise<UserRecord | undefined> {
      const r = await q.query<UserSqlRow>(
        `SELECT ${USER_SELECT}
           FROM users.identifiers i JOIN users.users u ON u.id = i.user_id
          WHERE i.key = $1 AND i.value = $2 AND u.deleted_at IS NULL`,
        [key, value],
      );
      return toUser(r.rows[0]);
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

    /** Locks the user's row until the transaction ends (serializes concurrent updates of one user). */
    async lock(userId: string): Promise<boolean> {
      const r = await q.query(`SELECT id FROM users.users WHERE id = $1 AND deleted_at IS NULL FOR UPDATE`, [userId]);
      return r.rows.length > 0;
    },

    /** The user whose active value of `key` is `value`, if any. */
    async holderOf(key: IdKey, value: string): Promise<string | undefined> {
      const r = await q.query<{ user_id: string }>(
        `SELECT user_id FROM users.identifiers WHERE key = $1 AND value = $2`,
        [key, value],
      );
      return r.rows[0]?.user_id;
    },

    /** A new active value, unconfirmed. Throws a unique violation when another user holds it. */
    async replaceIdentifier(userId: string, key: IdKey, value: string): Promise<void> {
      await q.query(
        `UPDATE users.identifiers SET value = $3, confirmed = false, confirmed_at = NULL,
                pending_value = NULL, pending_requested_at = NULL, updated_at = now()
          WHERE user_id = $1 AND key = $2`,
        [userId, key, value],
      );
    },

    /** Sets (or with null clears) the replacement awaiting confirmation. */
    async setPending(userId: string, key: IdKey, value: string | null): Promise<void> {
      await q.query(
        `UPDATE users.identifiers SET pending_value = $3, pending_requested_at = CASE WHEN $3::text IS NULL THEN NULL ELSE now() END,
                updated_at = now()
          WHERE user_id = $1 AND key = $2`,
        [userId, key, value],
      );
    },

    async deleteIdentifier(userId: string, key: IdKey): Promise<void> {
      await q.query(`DELETE FROM users.identifiers WHERE user_id = $1 AND key = $2`, [userId, key]);
    },

    /** Live codes for an identifier stop working (its value was removed or its replacement dropped). */
    async supersedeConfirmations(userId: string, key: IdKey): Promise<void> {
      await q.query(
        `UPDATE users.confirmations SET superseded_at = now() WHERE user_id = $1 AND key = $2 AND used_at IS NULL AND superseded_at IS NULL`,
        [userId, key],
      );
    },

    /** Writes the profile maps given (and the password hash) and bumps updated/version. */
    async saveProfile(
      userId: string,
      p: { datas?: JsonMap; addresses?: JsonMap; assertions?: JsonMap; passwordHash?: string },
    ): Promise<void> {
      const json = (v: JsonMap | undefined) => (v ? JSON.stringify(v) : null);
      await q.query(
        `UPDATE users.users SET datas = COALESCE($2::jsonb, datas), addresses = COALESCE($3::jsonb, addresses),
                assertions = COALESCE($4::jsonb, assertions), password_hash = COALESCE($5, password_hash),
                updated_at = now(), version = version + 1
          WHERE id = $1`,
        [userId, json(p.datas), json(p.addresses), json(p.assertions), p.passwordHash ?? null],
      );
    },

    async touch(userId: string): Promise<void> {
      await q.query(`UPDATE users.users SET updated_at = now(), version = version + 1 WHERE id = $1`, [userId]);
    },
  };
}

export type UserStore = ReturnType<typeof userStore>;
