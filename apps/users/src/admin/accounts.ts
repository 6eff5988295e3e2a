import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { Queryable } from "@gatehouse/db";
import { domainError } from "@gatehouse/errors";
import { AccountStatus, UserAccountSchema, type UserAccount } from "@gatehouse/proto";
import { canonicalPhone } from "../users/identifiers.ts";
import { toUser } from "../users/model.ts";
import { userStore, type UserRecord } from "../users/store.ts";

/** What operators see of an account beyond the public user record. */
export interface AccountFacts {
  lockedAt: Date | null;
  lastLoginAt: Date | null;
  mfaEnabledAt: Date | null;
}

export interface Account {
  user: UserRecord;
  facts: AccountFacts;
}

// LIKE patterns match the query literally.
const literal = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A phone number's prefix in E.164 form: "+34 600" and "34600" (a "+" lost in a URL) both mean "+34600". */
const phonePrefix = (raw: string) => {
  const p = canonicalPhone(raw);
  return p.startsWith("+") ? p : `+${p}`;
};

/** Accounts as operators see them: by object_id or pulse_id, or by search. */
export function accountStore(q: Queryable) {
  async function factsOf(ids: string[]): Promise<Map<string, AccountFacts>> {
    const { rows } = await q.query<{
      id: string;
      locked_at: Date | null;
      last_login_at: Date | null;
      mfa_enabled_at: Date | null;
    }>("SELECT id, locked_at, last_login_at, mfa_enabled_at FROM users.users WHERE id = ANY($1::text[])", [ids]);
    return new Map(
      rows.map((r) => [r.id, { lockedAt: r.locked_at, lastLoginAt: r.last_login_at, mfaEnabledAt: r.mfa_enabled_at }]),
    );
  }

  async function withFacts(users: UserRecord[]): Promise<Account[]> {
    const facts = await factsOf(users.map((u) => u.id));
    return users.map((user) => ({
      user,
      facts: facts.get(user.id) ?? { lockedAt: null, lastLoginAt: null, mfaEnabledAt: null },
    }));
  }

  return {
    /** The account named by object_id or pulse_id; USER_NOT_FOUND otherwise (erased ones included). */
    async find(idOrPulseId: string, forUpdate = false): Promise<Account> {
      const store = userStore(q);
      const user = (await store.byId(idOrPulseId)) ?? (await store.byPulseId(idOrPulseId));
      if (!user || (forUpdate && !(await store.lock(user.id)))) throw domainError("USER_NOT_FOUND");
      return (await withFacts([user]))[0]!;
    },

    /**
     * Up to `limit` accounts after object_id `after`, in object_id order, whose
     * email, phone_number, screen_name, object_id or pulse_id equals or starts
     * with `query` (each compared in its canonical form); every account when empty.
     */
    async search(query: string, after: string | undefined, limit: number): Promise<Account[]> {
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
      const store = userStore(q);
      const users = await Promise.all(rows.map((r) => store.byId(r.id)));
      return withFacts(users.filter((u): u is UserRecord => u !== undefined));
    },
  };
}

/** The proto UserAccount of an account (sessionCount only when it was asked of the auth service). */
export function toAccount(a: Account, sessionCount?: number): UserAccount {
  return create(UserAccountSchema, {
    user: toUser(a.user),
    status: a.facts.lockedAt ? AccountStatus.LOCKED : AccountStatus.ACTIVE,
    lastLoginTime: a.facts.lastLoginAt ? timestampFromDate(a.facts.lastLoginAt) : undefined,
    lockTime: a.facts.lockedAt ? timestampFromDate(a.facts.lockedAt) : undefined,
    mfaEnabled: a.facts.mfaEnabledAt !== null,
    ...(sessionCount === undefined ? {} : { sessionCount }),
  });
}
