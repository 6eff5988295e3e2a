import type { Queryable } from "@gatehouse/db";

export interface MfaState {
  userId: string;
  /** Sealed TOTP secret: enrolled (maybe not yet confirmed). */
  totpSealed: string | null;
  /** Set once a code confirmed the secret: TOTP is on. */
  enabledAt: Date | null;
  /** For the otpauth label. */
  email: string | undefined;
  /** An operator person: TOTP may not be turned off. */
  operator: boolean;
}

/** The TOTP columns of users.users and the recovery codes (users.mfa_recovery_codes, MACs only). */
export interface TotpStore {
  state(userId: string): Promise<MfaState | undefined>;
  /** Stores a new, not yet active secret; false when TOTP is already on. */
  enroll(userId: string, sealed: string): Promise<boolean>;
  /** Turns the enrolled secret on (only that secret: a re-enrolment in between wins) with fresh recovery codes. Several statements: call it in a transaction. */
  enable(userId: string, sealed: string, recoveryMacs: string[]): Promise<boolean>;
  /** Turns TOTP off and drops the recovery codes; false when it was not on. Several statements: call it in a transaction. */
  disable(userId: string): Promise<boolean>;
  /** Spends a recovery code: true for the one caller that used it. */
  spendRecovery(userId: string, mac: string): Promise<boolean>;
  /** How many recovery codes the user has and has used (the data export). */
  recoveryCounts(userId: string): Promise<{ total: number; used: number }>;
  /** Erasure: the recovery codes (the users row's TOTP columns go with the row, UserStore.erase). */
  erase(userId: string): Promise<void>;
}

export function totpStore(q: Queryable): TotpStore {
  return {
    async state(userId) {
      const { rows } = await q.query<{
        id: string;
        mfa_totp_sealed: string | null;
        mfa_enabled_at: Date | null;
        email: string | null;
        role: string;
      }>(
        `SELECT u.id, u.mfa_totp_sealed, u.mfa_enabled_at, i.value AS email, u.role
           FROM users.users u LEFT JOIN users.identifiers i ON i.user_id = u.id AND i.key = 'email'
          WHERE u.id = $1 AND u.deleted_at IS NULL`,
        [userId],
      );
      const r = rows[0];
      return (
        r && {
          userId: r.id,
          totpSealed: r.mfa_totp_sealed,
          enabledAt: r.mfa_enabled_at,
          email: r.email ?? undefined,
          operator: r.role === "operator",
        }
      );
    },

    async enroll(userId, sealed) {
      const r = await q.query(`UPDATE users.users SET mfa_totp_sealed = $2 WHERE id = $1 AND mfa_enabled_at IS NULL`, [
        userId,
        sealed,
      ]);
      return r.rowCount > 0;
    },

    async enable(userId, sealed, recoveryMacs) {
      const r = await q.query(
        `UPDATE users.users SET mfa_enabled_at = now(), updated_at = now()
          WHERE id = $1 AND mfa_enabled_at IS NULL AND mfa_totp_sealed = $2`,
        [userId, sealed],
      );
      if (r.rowCount === 0) return false;
      await q.query(`DELETE FROM users.mfa_recovery_codes WHERE user_id = $1`, [userId]);
      for (const mac of recoveryMacs)
        await q.query(`INSERT INTO users.mfa_recovery_codes (user_id, code_mac) VALUES ($1, $2)`, [userId, mac]);
      return true;
    },

    async disable(userId) {
      const r = await q.query(
        `UPDATE users.users SET mfa_totp_sealed = NULL, mfa_enabled_at = NULL, updated_at = now()
          WHERE id = $1 AND mfa_enabled_at IS NOT NULL`,
        [userId],
      );
      await q.query(`DELETE FROM users.mfa_recovery_codes WHERE user_id = $1`, [userId]);
      return r.rowCount > 0;
    },

    async spendRecovery(userId, mac) {
      const r = await q.query(
        `UPDATE users.mfa_recovery_codes SET used_at = now() WHERE user_id = $1 AND code_mac = $2 AND used_at IS NULL`,
        [userId, mac],
      );
      return r.rowCount > 0;
    },

    async recoveryCounts(userId) {
      const r = await q.query<{ total: number; used: number }>(
        "SELECT count(*)::int AS total, count(used_at)::int AS used FROM users.mfa_recovery_codes WHERE user_id = $1",
        [userId],
      );
      return { total: r.rows[0]?.total ?? 0, used: r.rows[0]?.used ?? 0 };
    },

    async erase(userId) {
      await q.query(`DELETE FROM users.mfa_recovery_codes WHERE user_id = $1`, [userId]);
    },
  };
}
