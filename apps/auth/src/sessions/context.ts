import { domainError } from "@gatehouse/errors";
import type { Logger } from "@gatehouse/logging";
import type { RevocationList } from "../revocation/revocation-list.ts";
import type { SessionLifetimes } from "../settings.ts";
import type { SessionRecord, SessionStore, StoredSession } from "./session-store.ts";

export interface SessionsDeps {
  store: SessionStore;
  revocations: RevocationList;
  lifetimes: SessionLifetimes;
  logger?: Logger;
  now?: () => number;
}

/** What every step of the sessions works with: its deps, the clock and the idle window. */
export interface SessionsContext {
  store: SessionStore;
  revocations: RevocationList;
  lifetimes: SessionLifetimes;
  logger: Logger | undefined;
  now: () => number;
  idleMs: number;
}

export function sessionsContext(deps: SessionsDeps): SessionsContext {
  return {
    store: deps.store,
    revocations: deps.revocations,
    lifetimes: deps.lifetimes,
    logger: deps.logger,
    now: deps.now ?? Date.now,
    idleMs: deps.lifetimes.idleSeconds * 1000,
  };
}

/** A revocation check's reads made for `userId`'s session (RevocationList.read). */
export type RevocationRead = ReturnType<RevocationList["read"]> & { userId: string };

export const invalidGrant = (why: string) => domainError("INVALID_GRANT", why);

/** When a session's current refresh token stops working (ms): the idle deadline or the absolute end, whichever is first. */
export const deadline = (ctx: SessionsContext, s: SessionRecord) => Math.min(s.expiresAt, s.refreshedAt + ctx.idleMs);

/** The user's sessions the index still holds. */
export async function indexedOf(ctx: SessionsContext, userId: string, t: number): Promise<StoredSession[]> {
  const found = await Promise.all((await ctx.store.indexedSessions(userId, t)).map((sid) => ctx.store.get(sid)));
  return found.filter((stored): stored is StoredSession => stored?.record.userId === userId);
}
