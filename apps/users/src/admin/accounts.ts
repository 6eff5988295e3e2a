import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { domainError } from "@gatehouse/errors";
import { AccountStatus, UserAccountSchema, type UserAccount } from "@gatehouse/proto";
import { toUser } from "../users/model.ts";
import type { UserRecord } from "../users/record.ts";
import type { UserStore } from "../users/store.ts";
import type { AccountFacts, AccountStore } from "./store.ts";

export interface Account {
  user: UserRecord;
  facts: AccountFacts;
}

/** The stores an account is read from: the user and its account columns. */
export interface AccountReads {
  users: UserStore;
  accounts: AccountStore;
}

async function withFacts(s: AccountReads, users: UserRecord[]): Promise<Account[]> {
  const facts = await s.accounts.facts(users.map((u) => u.id));
  return users.map((user) => ({
    user,
    facts: facts.get(user.id) ?? { lockedAt: null, lastLoginAt: null, mfaEnabledAt: null, passkeys: 0 },
  }));
}

/** The account named by object_id or pulse_id, its row locked with `forUpdate`; USER_NOT_FOUND otherwise (erased ones included). */
export async function findAccount(s: AccountReads, idOrPulseId: string, forUpdate = false): Promise<Account> {
  const user = (await s.users.byId(idOrPulseId)) ?? (await s.users.byPulseId(idOrPulseId));
  if (!user || (forUpdate && !(await s.users.lock(user.id)))) throw domainError("USER_NOT_FOUND");
  return (await withFacts(s, [user]))[0]!;
}

/** Up to `limit` accounts after object_id `after` that match `query` (AccountStore.search), in object_id order. */
export async function searchAccounts(
  s: AccountReads,
  query: string,
  after: string | undefined,
  limit: number,
): Promise<Account[]> {
  const ids = await s.accounts.search(query, after, limit);
  const users = await Promise.all(ids.map((id) => s.users.byId(id)));
  return withFacts(
    s,
    users.filter((u): u is UserRecord => u !== undefined),
  );
}

/** The proto UserAccount of an account (sessionCount only when it was asked of the auth service). */
export function toAccount(a: Account, sessionCount?: number): UserAccount {
  return create(UserAccountSchema, {
    user: toUser(a.user),
    status: a.facts.lockedAt ? AccountStatus.LOCKED : AccountStatus.ACTIVE,
    lastLoginTime: a.facts.lastLoginAt ? timestampFromDate(a.facts.lastLoginAt) : undefined,
    lockTime: a.facts.lockedAt ? timestampFromDate(a.facts.lockedAt) : undefined,
    mfaEnabled: a.facts.mfaEnabledAt !== null,
    passkeyCount: a.facts.passkeys,
    ...(sessionCount === undefined ? {} : { sessionCount }),
  });
}
