import type { Queryable } from "@gatehouse/db";
import type { JsonMap, NewUser } from "./record.ts";

/** Writes of the users row. */
export interface UserWrites {
  insertUser(u: NewUser): Promise<void>;
  /** Sets the hash; with `replacing`, only while that hash is still the stored one (a rehash happens once). */
  setPasswordHash(userId: string, passwordHash: string, replacing?: string): Promise<void>;
  /** Writes the profile maps given (and the password hash) and bumps updated/version. */
  saveProfile(
    userId: string,
    p: { datas?: JsonMap; addresses?: JsonMap; assertions?: JsonMap; passwordHash?: string },
  ): Promise<void>;
  /** Bumps updated/version (an identifier changed). */
  touch(userId: string): Promise<void>;
  /** An assisted registration was activated: logins no longer stop at 412 for it. */
  markActivated(userId: string): Promise<void>;
  /** Erasure: the identifiers go, the row keeps only its ids and times (a tombstone: the ids answer 404 and are never reused). */
  erase(userId: string): Promise<void>;
}

export type ProfileChange = Parameters<UserWrites["saveProfile"]>[1];

/** saveProfile's SET clause over profileParams ($1 the user's id): shared with the patch's statement (EventStore). */
export const PROFILE_SET = `datas = COALESCE($2::jsonb, datas), addresses = COALESCE($3::jsonb, addresses),
                assertions = COALESCE($4::jsonb, assertions), password_hash = COALESCE($5, password_hash),
                updated_at = now(), version = version + 1`;

export function profileParams(userId: string, p: ProfileChange): unknown[] {
  const json = (v: JsonMap | undefined) => (v ? JSON.stringify(v) : null);
  return [userId, json(p.datas), json(p.addresses), json(p.assertions), p.passwordHash ?? null];
}

export function userWrites(q: Queryable): UserWrites {
  return {
    async insertUser(u) {
      await q.query(
        `INSERT INTO users.users (id, pulse_id, password_hash, datas, addresses, assertions, registered_client_id, registered_entrypoint, awaiting_activation, role)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
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
          u.operator ? "operator" : "user",
        ],
      );
    },

    async setPasswordHash(userId, passwordHash, replacing) {
      await q.query(
        `UPDATE users.users SET password_hash = $2 WHERE id = $1 AND ($3::text IS NULL OR password_hash = $3)`,
        [userId, passwordHash, replacing ?? null],
      );
    },

    async saveProfile(userId, p) {
      await q.query(`UPDATE users.users SET ${PROFILE_SET} WHERE id = $1`, profileParams(userId, p));
    },

    async touch(userId) {
      await q.query(`UPDATE users.users SET updated_at = now(), version = version + 1 WHERE id = $1`, [userId]);
    },

    async markActivated(userId) {
      await q.query(`UPDATE users.users SET awaiting_activation = false WHERE id = $1`, [userId]);
    },

    async erase(userId) {
      await q.query(`DELETE FROM users.identifiers WHERE user_id = $1`, [userId]);
      await q.query(
        `UPDATE users.users SET password_hash = NULL, datas = '{}', addresses = '{}', assertions = '{}',
                registered_client_id = NULL, registered_entrypoint = NULL, mfa_totp_sealed = NULL, mfa_enabled_at = NULL,
                last_login_at = NULL, locked_at = NULL, deleted_at = now(), updated_at = now(), version = version + 1
          WHERE id = $1`,
        [userId],
      );
    },
  };
}
