import type { Db, Queryable } from "@gatehouse/db";

export interface MfaState {
  userId: string;
  /** Sealed TOTP secret: enrolled (maybe not yet confirmed). */
  totpSealed: string | null;
  /** Set once a code confirmed the secret: TOTP is on. */
  enabledAt: Date | null;
  passwordHash: string | null;
  /** For the otpauth label. */
  email: string | undefined;
  /** An operator person: TOTP may not be turned off. */
  operator: boolean;
}

/** The MFA columns of users.users and the recovery codes. */
export function mfaStore(db: Db) {
  const q: Queryable = db;
  return {
    async state(userId: string): Promise<MfaState | undefined> {
      const { rows } = await q.query<{
        id: string;
        mfa_totp_sealed: string | null;
        mfa_enabled_at: Date | null;
        password_hash: string | null;
        email: string | null;
        role: string;
      }>(
        `SELECT u.id, u.mfa_totp_sealed, u.mfa_enabled_at, u.password_hash, i.value AS email, u.role
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
          passwordHash: r.password_hash,
          email: r.email ?? undefined,
          operator: r.role === "operator",
        }
      );
    },

    /** Stores a new, not yet active secret; false when TOTP is already on. */
    async enroll(userId: string, sealed: string): Promise<boolean> {
      const r = await q.query(`UPDATE users.users SET mfa_totp_sealed = $2 WHERE id = $1 AND mfa_enabled_at IS NULL`, [
        userId,
        sealed,
      ]);
      return (r.rowCount ?? 0) > 0;
    },

    /** Turns the enrolled secret on (only that secret: a re-enrolment in between wins) with fresh recovery codes. */
    async enable(userId: string, sealed: string, recoveryMacs: string[]): Promise<boolean> {
      return db.tx(async (t) => {
        const r = await t.query(
          `UPDATE users.users SET mfa_enabled_at = now(), updated_at = now()
            WHERE id = $1 AND mfa_enabled_at IS NULL AND mfa_totp_sealed = $2`,
          [userId, sealed],
        );
        if ((r.rowCount ?? 0) === 0) return false;
        await t.query(`DELETE FROM users.mfa_recovery_codes WHERE user_id = $1`, [userId]);
        for (const mac of recoveryMacs)
          await t.query(`INSERT INTO users.mfa_recovery_codes (user_id, code_mac) VALUES ($1, $2)`, [userId, mac]);
        return true;
      });
    },

    async disable(userId: string): Promise<boolean> {
      return db.tx(async (t) => {
        const r = await t.query(
          `UPDATE users.users SET mfa_totp_sealed = NULL, mfa_enabled_at = NULL, updated_at = now()
            WHERE id = $1 AND mfa_enabled_at IS NOT NULL`,
          [userId],
        );
        await t.query(`DELETE FROM users.mfa_recovery_codes WHERE user_id = $1`, [userId]);
        return (r.rowCount ?? 0) > 0;
      });
    },

    /** Spends a recovery code: true for the one caller that used it. */
    async spendRecovery(userId: string, mac: string): Promise<boolean> {
      const r = await q.query(
        `UPDATE users.mfa_recovery_codes SET used_at = now() WHERE user_id = $1 AND code_mac = $2 AND used_at IS NULL`,
        [userId, mac],
      );
      return (r.rowCount ?? 0) > 0;
    },
  };
}

export type MfaStore = ReturnType<typeof mfaStore>;
