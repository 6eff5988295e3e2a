import type { SessionRecord } from "./session-store.ts";
import { deadline, sessionsContext, type SessionsDeps } from "./context.ts";
import { endAllOf, endFamily, endSessionById } from "./ending.ts";
import { inspect, liveSessionsOf } from "./inspect.ts";
import { userEndedAfter } from "./marks.ts";
import { openSession, type OpenSession } from "./open.ts";
import { rotateRefreshToken, type RotateRefreshToken } from "./rotate.ts";

export type { SessionsDeps } from "./context.ts";

/** A refresh token that is live: its session is active and within both lifetimes, and it is the newest of its family. */
export interface LiveRefreshToken {
  session: SessionRecord;
  /** When this refresh token stops working (ms): the idle deadline or the absolute end, whichever is first. */
  expiresAt: number;
}

/**
 * Login sessions and their refresh families. Every refresh rotates the token;
 * a spent token presented again (reuse, RFC 9700 section 4.14.2) ends the
 * whole family. Concurrent presentations of one token are the same thing:
 * one wins the compare-and-set, every loser counts as reuse and ends the
 * family, the winner's new tokens included (safe, and simple to reason about).
 */
export function createSessions(deps: SessionsDeps) {
  const ctx = sessionsContext(deps);
  return {
    /** A new session and the first refresh token of its family. */
    open: (input: OpenSession) => openSession(ctx, input),
    /** Spends a refresh token and returns its successor; reuse ends the family. */
    rotate: (input: RotateRefreshToken) => rotateRefreshToken(ctx, input),
    /** Logout: ends a session and its family; false when there is no such session. */
    end: (sid: string) => endSessionById(ctx, sid),
    /** Ends the family of a session id even if the session is not stored (yet). */
    endFamily: (sid: string) => endFamily(ctx, sid),
    /** The sessions of a user that can still be refreshed (admin view), newest first. */
    liveSessionsOf: (userId: string) => liveSessionsOf(ctx, userId),
    /** What began at `at` (an authorization code's login) is refused when every session of the user was ended since. */
    userEndedAfter: (userId: string, at: number) => userEndedAfter(ctx, userId, at),
    /** Ends every session of a user (log out everywhere, lock, erasure); how many live ones the index knew. */
    endAllOf: (userId: string) => endAllOf(ctx, userId),

    /** The session a refresh token belongs to, live or not (for revocation). */
    async sessionOf(refreshToken: string): Promise<SessionRecord | undefined> {
      return (await inspect(ctx, refreshToken))?.current.record;
    },

    /** The refresh token when it is live (for introspection). */
    async live(refreshToken: string): Promise<LiveRefreshToken | undefined> {
      const seen = await inspect(ctx, refreshToken);
      if (!seen?.live) return undefined;
      return { session: seen.current.record, expiresAt: deadline(ctx, seen.current.record) };
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
