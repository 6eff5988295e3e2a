import { domainError } from "@gatehouse/errors";
import type { EventStore } from "../events/store.ts";
import type { LoginGrants, UserSessions } from "../ports.ts";
import type { Transactional } from "../transactional.ts";
import type { AccountStore } from "./store.ts";

/**
 * Wraps everything the auth service grants a user (a session at login, after
 * a 428, at registration; a hosted login's authorization code): refused for
 * a locked or erased account (a login that passed its password before the
 * lock and finishes its MFA step after it), and the user's last login
 * recorded. A lock that lands while the grant is made is seen by the second
 * look: a session is ended again with every other, a code is never handed
 * out. A lock after that look is the auth service's: the exchange refuses a
 * code issued before the user's "not before" mark. With `events`, the last
 * login and its user.login event are written by one statement.
 */
export function recordingLogins(
  accounts: AccountStore,
  grants: LoginGrants,
  sessions: UserSessions | undefined,
  events?: Transactional<{ accounts: AccountStore; events: EventStore }>,
): LoginGrants {
  const admit = async (userId: string, clientId: string) => {
    const admitted = events ? await events.events.admitLogin(userId, clientId) : await accounts.admitLogin(userId);
    if (!admitted) throw domainError("ACCOUNT_LOCKED");
  };
  const locked = (userId: string) => accounts.isLocked(userId);
  return {
    async openSession(userId, clientId) {
      await admit(userId, clientId);
      const session = await grants.openSession(userId, clientId);
      if (await locked(userId)) {
        await sessions?.endAll(userId);
        throw domainError("ACCOUNT_LOCKED");
      }
      return session;
    },

    async issueCode(request, userId, authTime, operatorEmail) {
      await admit(userId, request.clientId);
      const code = await grants.issueCode(request, userId, authTime, operatorEmail);
      if (await locked(userId)) throw domainError("ACCOUNT_LOCKED");
      return code;
    },
  };
}
