import { auditLog, type AuditLog } from "@gatehouse/admin";
import type { Queryable } from "@gatehouse/db";
import { canonicalPhone } from "../users/identifiers.ts";

/** What operators see of an account beyond the public user record. */
export interface AccountFacts {
  lockedAt: Date | null;
  lastLoginAt: Date | null;
  mfaEnabledAt: Date | null;
  /** How many passkeys the user holds (contract section 12). */
  passkeys: number;
}

/** The account columns of users.users that operators and grants use: the lock and the last login. */
export interface AccountStore {
  facts(userIds: string[]): Promise<Map<string, AccountFacts>>;
  /**
   * Up to `limit` ids of live accounts after object_id `after`, in object_id
   * order, whose email, phone_number, screen_name, object_id or pulse_id
   * equals or starts with `query` (each compared in its canonical form); every
   * account when empty.
   */
  search(query: string, after: string | undefined, limit: number): Promise<string[]>;
  lock(userId: string): Promise<void>;
  unlock(userId: string): Promise<void>;
  /** Records a login of a live, unlocked account: its pulse id; undefined when it is locked or erased. */
  admitLogin(userId: string): Promise<string | undefined>;
  /** True when locked, or when there is no such user. */
  isLocked(userId: string): Promise<boolean>;
}

/** The users service's append-only audit log (migration 004). */
export const AUDIT_TABLE = "users.audit_log";
export const auditOf = (q: Queryable): AuditLog => auditLog(q, AUDIT_TABLE);

// LIKE patterns match the query literally.
const literal = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A phone number's prefix in E.164 form: "+34 600" and "34600" (a "+" lost in a URL) both mean "+34600". */
const phonePrefix = (raw: string) => {
  const p = canonicalPhone(raw);
  return p.startsWith("+") ? p : `+${p}`;
};

export function accountStore(q: Queryable): AccountStore {
  return {
    async facts(userIds) {
      const { rows } = await q.query<{
        id: string;
        locked_at: Date | null;
        last_login_at: Date | null;
        mfa_enabled_at: Date | null;
        passkeys: number;
      }>(
        `SELECT u.id, u.locked_at, u.last_login_at, u.mfa_enabled_at,
                (SELECT count(*)::int FROM users.passkeys p WHERE p.user_id = u.id) AS passkeys
           FROM users.users u WHERE u.id = ANY($1::text[])`,
        [userIds],
      );
      return new Map(
        rows.map((r) => [
          r.id,
          {
            lockedAt: r.locked_at,
            lastLoginAt: r.last_login_at,
            mfaEnabledAt: r.mfa_enabled_at,
            passkeys: r.passkeys,
          },
        ]),
      );
    },

    async search(query, after, limit) {
      const raw = query.trim();
      const hits = raw
        ? `SELECT id FROM users.users WHERE id LIKE $3 OR pulse_id LIKE $4
           UNION SELECT user_id FROM users.identifiers WHERE key = 'email' AND value LIKE $5
           UNION SELECT user_id FROM users.identifiers WHERE key = 'phone_number' AND value LIKE $6
           UNION SELECT user_id FROM users.identifiers WHERE key = 'screen_name' AND value LIKE $3`
        : "SELECT id FROM users.users";
      const prefix = (s: string) => `${literal(s)}%`;
      const { rows } = await q.query<{ id: string }>(
        `SELECT u.id FROM users.users u JOIN (${hits}) hit ON hit.id = u.id
          WHERE u.deleted_at IS NULL AND ($1::text IS NULL OR u.id > $1)
          ORDER BY u.id LIMIT $2`,
        raw
          ? [
              after ?? null,
              limit,
              prefix(raw),
              prefix(raw.toLowerCase()),
              prefix(raw.toLowerCase()),
              prefix(phonePrefix(raw)),
            ]
          : [after ?? null, limit],
      );
      return rows.map((r) => r.id);
    },

    async lock(userId) {
      await q.query("UPDATE users.users SET locked_at = COALESCE(locked_at, now()) WHERE id = $1", [userId]);
    },

    async unlock(userId) {
      await q.query("UPDATE users.users SET locked_at = NULL WHERE id = $1", [userId]);
    },

    async admitLogin(userId) {
      const { rows } = await q.query<{ pulse_id: string }>(
        `UPDATE users.users SET last_login_at = now() WHERE id = $1 AND locked_at IS NULL AND deleted_at IS NULL
         RETURNING pulse_id`,
        [userId],
      );
      return rows[0]?.pulse_id;
    },

    async isLocked(userId) {
      const { rows } = await q.query<{ locked: boolean }>(
        "SELECT locked_at IS NOT NULL AS locked FROM users.users WHERE id = $1",
        [userId],
      );
      return rows[0]?.locked !== false;
    },
  };
}
