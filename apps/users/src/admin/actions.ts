import type { AuditContext, AuditLog } from "@gatehouse/admin";
import { domainError } from "@gatehouse/errors";
import type { AccessCodeStore } from "../access-code/store.ts";
import type { ActivationStore } from "../activation/store.ts";
import type { ConfirmationStore } from "../confirmation/store.ts";
import type { PasskeyStore } from "../passkeys/store.ts";
import type { UserSessions } from "../ports.ts";
import type { AcceptanceStore } from "../terms/store.ts";
import type { Transactional } from "../transactional.ts";
import type { TotpStore } from "../verifiers/totp/store.ts";
import type { IdentityStore } from "../verifiers/upstream/store.ts";
import { findAccount, type Account, type AccountReads } from "./accounts.ts";
import type { EventStore } from "../events/store.ts";

/** The stores operators' actions read and write (an export and an erasure reach every table of a user). */
export type AdminStores = AccountReads & {
  audit: AuditLog;
  events: EventStore;
  confirmations: ConfirmationStore;
  acceptances: AcceptanceStore;
  totp: TotpStore;
  accessCodes: AccessCodeStore;
  activations: ActivationStore;
  identities: IdentityStore;
  passkeys: PasskeyStore;
};

export interface AdminDeps {
  data: Transactional<AdminStores>;
  /** The auth service's sessions of each user; without it nothing that needs them can be done. */
  sessions?: UserSessions;
}

export function sessionsOf(deps: AdminDeps): UserSessions {
  if (!deps.sessions) throw domainError("SERVICE_UNAVAILABLE", "the auth service's sessions are not wired");
  return deps.sessions;
}

/**
 * Locks the account (login answers ACCOUNT_LOCKED once the password is right)
 * and ends every session. The lock and its audit entry commit first; the
 * sessions are ended after the commit (the auth service is another process
 * and its own store), so a session opened meanwhile is still older than the
 * "not before" mark. Should that call fail, the lock stands and the caller
 * answers 503: locking again ends the sessions.
 */
export async function lockAccount(
  deps: AdminDeps,
  id: string,
  who: AuditContext,
): Promise<{ account: Account; ended: number }> {
  const sessions = sessionsOf(deps);
  const account = await deps.data.tx(async (s) => {
    const found = await findAccount(s, id, true);
    const wasLocked = found.facts.lockedAt !== null;
    await s.accounts.lock(found.user.id);
    if (!wasLocked) await s.events.user("user.locked", null, found.user);
    await s.audit.record({
      ...who,
      action: "user.lock",
      target: found.user.id,
      details: { alreadyLocked: wasLocked },
    });
    return findAccount(s, found.user.id);
  });
  return { account, ended: await sessions.endAll(account.user.id) };
}

export async function unlockAccount(deps: AdminDeps, id: string, who: AuditContext): Promise<Account> {
  return deps.data.tx(async (s) => {
    const found = await findAccount(s, id, true);
    await s.accounts.unlock(found.user.id);
    if (found.facts.lockedAt !== null) await s.events.user("user.unlocked", null, found.user);
    await s.audit.record({
      ...who,
      action: "user.unlock",
      target: found.user.id,
      details: { wasLocked: found.facts.lockedAt !== null },
    });
    return findAccount(s, found.user.id);
  });
}

/** Logs the user out everywhere (every session and its tokens), then records how many sessions were ended. */
export async function endUserSessions(
  deps: AdminDeps,
  id: string,
  who: AuditContext,
): Promise<{ account: Account; ended: number }> {
  const sessions = sessionsOf(deps);
  const account = await findAccount(deps.data, id);
  const ended = await sessions.endAll(account.user.id);
  await deps.data.audit.record({
    ...who,
    action: "user.logout",
    target: account.user.id,
    details: { sessionsEnded: ended },
  });
  return { account, ended };
}
