import type { Kv } from "@gatehouse/kv";

/** One session in a user's index: its id and when its key expires (ms). */
interface IndexEntry {
  sid: string;
  until: number;
}

const indexKey = (userId: string) => `user-sessions:${userId}`;

/** At most this many sessions per user are indexed; the oldest drop out (the user's "not before" mark still covers them). */
export const MAX_INDEXED_SESSIONS = 500;
const MAX_ATTEMPTS = 50;

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * The sessions of each user, for counting and ending them all (admin view,
 * lock, log out everywhere). A JSON list per user in the shared kv, changed
 * with compare-and-set so that concurrent logins of one user both land.
 * Entries leave when their session could no longer be used. It lives in the
 * kv like the sessions themselves and is lost with them (a Redis or `npm
 * start` restart): revocation never depends on it, the user's durable "not
 * before" mark does (sessions.ts endAllOf).
 */
export function createUserIndex(kv: Kv) {
  const read = (raw: string | null): IndexEntry[] => (raw === null ? [] : (JSON.parse(raw) as IndexEntry[]));
  return {
    /** Adds a session that lives (its key included) until `until` ms. */
    async indexSession(userId: string, sid: string, until: number, now: number): Promise<void> {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const raw = await kv.get(indexKey(userId));
        const kept = read(raw).filter((e) => e.until > now && e.sid !== sid);
        const next = [...kept, { sid, until }].slice(-MAX_INDEXED_SESSIONS);
        const ttl = seconds(Math.max(...next.map((e) => e.until)) - now);
        const json = JSON.stringify(next);
        const written = raw === null ? await kv.setIfAbsent(indexKey(userId), json, ttl) : await kv.compareAndSet(indexKey(userId), raw, json, ttl);
        if (written) return;
      }
      throw new Error(`session index of user ${userId} kept changing`);
    },

    /** The ids of the user's sessions that may still be in use. */
    async indexedSessions(userId: string, now: number): Promise<string[]> {
      return read(await kv.get(indexKey(userId)))
        .filter((e) => e.until > now)
        .map((e) => e.sid);
    },
  };
}

export type UserIndex = ReturnType<typeof createUserIndex>;
