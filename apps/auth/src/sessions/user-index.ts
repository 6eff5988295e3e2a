import type { Kv, KvWrite } from "@gatehouse/kv";

/**
 * A set of its session ids per user, each member ending when its session
 * could no longer be used. (`user-sessions:<user>`, a JSON list changed by
 * compare-and-set, was the index before; such keys are no longer read and
 * expire with their sessions.)
 */
const indexKey = (userId: string) => `session-index:${userId}`;

/** At most this many sessions per user are indexed; the soonest-ending drop out (the user's "not before" mark still covers them). */
export const MAX_INDEXED_SESSIONS = 500;

/**
 * The sessions of each user, for counting and ending them all (admin view,
 * lock, log out everywhere): an expiring set per user in the shared kv,
 * added to in the same step as the session is written, so that concurrent
 * logins of one user all land. It lives in the kv like the sessions
 * themselves and is lost with them (a Redis or `npm start` restart):
 * revocation never depends on it, the user's durable "not before" mark does
 * (sessions.ts endAllOf).
 */
export function createUserIndex(kv: Kv) {
  return {
    /** The write that adds a session that lives (its key included) until `until` ms. */
    indexWrite(userId: string, sid: string, until: number, now: number): KvWrite {
      return { op: "addMember", key: indexKey(userId), member: sid, until, now, keep: MAX_INDEXED_SESSIONS };
    },

    /** The ids of the user's sessions that may still be in use. */
    indexedSessions(userId: string, now: number): Promise<string[]> {
      return kv.members(indexKey(userId), now);
    },
  };
}

export type UserIndex = ReturnType<typeof createUserIndex>;
