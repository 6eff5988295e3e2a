import { auditLog, type AuditContext, type AuditLog } from "@gatehouse/admin";
import type { Db, Queryable } from "@gatehouse/db";
import { domainError } from "@gatehouse/errors";
import { accountStore, type Account } from "./accounts.ts";
import type { UserSessions } from "../ports.ts";

/** The users service's append-only audit log (migration 004). */
export const AUDIT_TABLE = "users.audit_log";
export const audit = (q: Queryable): AuditLog => auditLog(q, AUDIT_TABLE);

export interface AdminDeps {
  db: Db;
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
  const account = await deps.db.tx(async (q) => {
    const found = await accountStore(q).find(id, true);
    const wasLocked = found.facts.lockedAt !== null;
    await q.query("UPDATE users.users SET locked_at = COALESCE(locked_at, now()) WHERE id = $1", [found.user.id]);
    await audit(q).record({
      ...who,
      action: "user.lock",
      target: found.user.id,
      details: { alreadyLocked: wasLocked },
    });
    return accountStore(q).find(found.user.id);
  });
  return { account, ended: await sessions.endAll(account.user.id) };
}

export async function unlockAccount(deps: AdminDeps, id: string, who: AuditContext): Promise<Account> {
  return deps.db.tx(async (q) => {
    const found = await accountStore(q).find(id, true);
    await q.query("UPDATE users.users SET locked_at = NULL WHERE id = $1", [found.user.id]);
    await audit(q).record({
      ...who,
      action: "user.unlock",
      target: found.user.id,
      details: { wasLocked: found.facts.lockedAt !== null },
    });
    return accountStore(q).find(found.user.id);
  });
}

/** Logs the user out everywhere (every session and its tokens), then records how many sessions were ended. */
export async function endUserSessions(
  deps: AdminDeps,
  id: string,
  who: AuditContext,
): Promise<{ account: Account; ended: number }> {
  const sessions = sessionsOf(deps);
  const account = await accountStore(deps.db).find(id);
  const ended = await sessions.endAll(account.user.id);
  await audit(deps.db).record({
    ...who,
    action: "user.logout",
    target: account.user.id,
    details: { sessionsEnded: ended },
  });
  return { account, ended };
}
