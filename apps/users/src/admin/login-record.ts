import type { Db } from "@gatehouse/db";
import { domainError } from "@gatehouse/errors";
import type { Caller, Session, User } from "@gatehouse/proto";
import type { UserSessions } from "./sessions.ts";

type OpenSession = (user: User, caller: Caller | undefined) => Promise<Session>;

/**
 * Wraps the opening of every session (login, a finished 428, registration
 * that signs in): refused for a locked account (a login that passed its
 * password before the lock and finishes its MFA step after it), and the
 * user's last login recorded. A lock that lands while the session opens is
 * seen by the second look, which ends the user's sessions again.
 */
export function recordingLogins(db: Db, open: OpenSession, sessions: UserSessions | undefined): OpenSession {
  const locked = async (userId: string) => {
    const { rows } = await db.query<{ locked: boolean }>("SELECT locked_at IS NOT NULL AS locked FROM users.users WHERE id = $1", [userId]);
    return rows[0]?.locked !== false;
  };
  return async (user, caller) => {
    const { rowCount } = await db.query(
      "UPDATE users.users SET last_login_at = now() WHERE id = $1 AND locked_at IS NULL AND deleted_at IS NULL",
      [user.id],
    );
    if (rowCount === 0) throw domainError("ACCOUNT_LOCKED");
    const session = await open(user, caller);
    if (await locked(user.id)) {
      await sessions?.endAll(user.id);
      throw domainError("ACCOUNT_LOCKED");
    }
    return session;
  };
}
