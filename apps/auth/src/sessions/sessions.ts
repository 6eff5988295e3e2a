import { domainError } from "@gatehouse/errors";
import type { Logger } from "@gatehouse/logging";
import { randomSecret } from "@gatehouse/secrets";
import { parseScope } from "../grants/scope.ts";
import type { SessionLifetimes } from "../settings.ts";
import type { RevocationList } from "../tokens/revocation-list.ts";
import type { SessionRecord, SessionStore, StoredSession } from "./session-store.ts";

export interface SessionsDeps {
  store: SessionStore;
  revocations: RevocationList;
  lifetimes: SessionLifetimes;
  logger?: Logger;
  now?: () => number;
}

/** A refresh token that is live: its session is active and within both lifetimes, and it is the newest of its family. */
export interface LiveRefreshToken {
  session: SessionRecord;
  /** When this refresh token stops working (ms): the idle deadline or the absolute end, whichever is first. */
  expiresAt: number;
}

const invalidGrant = (why: string) => domainError("INVALID_GRANT", why);

/**
 * Login sessions and their refresh families. Every refresh rotates the token;
 * a spent token presented again (reuse, RFC 9700 section 4.14.2) ends the
 * whole family. Concurrent presentations of one token are the same thing:
 * one wins the compare-and-set, every loser counts as reuse and ends the
 * family, the winner's new tokens included (safe, and simple to reason about).
 */
export function createSessions(deps: SessionsDeps) {
  const { store, revocations, lifetimes } = deps;
  const now = deps.now ?? Date.now;
  const idleMs = lifetimes.idleSeconds * 1000;

  const deadline = (s: SessionRecord) => Math.min(s.expiresAt, s.refreshedAt + idleMs);

  async function end(current: StoredSession | undefined): Promise<boolean> {
    if (!current) return false;
    const s = current.record;
    const t = now();
    // The mark first: from here on the session's access tokens are refused, whatever else happens.
    await revocations.revokeSession(s.sid, Math.ceil(s.expiresAt / 1000) + lifetimes.accessTokenTtlSeconds);
    if (s.state !== "revoked") await store.put({ ...s, state: "revoked" }, t);
    return true;
  }

  /** Its own mark, or its user's "not before" (log out everywhere, lock) ended it. */
  async function endedByMarks(s: SessionRecord): Promise<boolean> {
    const [ended, notBefore] = await Promise.all([revocations.isSessionRevoked(s.sid), revocations.subjectNotBefore(s.userId)]);
    return ended || (notBefore !== undefined && s.created < notBefore);
  }

  async function reuse(current: StoredSession, why: string): Promise<never> {
    deps.logger?.warn({ sid: current.record.sid, clientId: current.record.clientId }, `refresh token reuse (${why}): session ended`);
    await end(current);
    throw invalidGrant("refresh token was already used; the session has been ended");
  }

  /** The live session of a refresh token, or why not. Reuse is reported, not acted on. */
  async function inspect(token: string): Promise<{ current: StoredSession; live: boolean; reused: boolean; why: string } | undefined> {
    const found = token ? await store.findRefresh(token) : undefined;
    const current = found ? await store.get(found.sid) : undefined;
    if (!found || !current) return undefined;
    const s = current.record;
    const t = now();
    const reused = found.generation !== s.generation;
    let why = "";
    if (s.state === "revoked" || (await endedByMarks(s))) why = "the session has ended";
    else if (reused) why = "refresh token was already used";
    else if (t >= s.expiresAt) why = "the session has expired";
    else if (t >= s.refreshedAt + idleMs) why = "the refresh token expired unused";
    return { current, live: why === "", reused: reused && s.state === "active", why };
  }

  /** The sessions of a user that can still be refreshed (admin view), newest first. */
  async function liveSessionsOf(userId: string): Promise<SessionRecord[]> {
    const t = now();
    const found = await Promise.all((await store.indexedSessions(userId, t)).map((sid) => store.get(sid)));
    const live: SessionRecord[] = [];
    for (const stored of found) {
      const s = stored?.record;
      if (s && s.userId === userId && s.state === "active" && t < deadline(s) && !(await endedByMarks(s))) live.push(s);
    }
    return live.sort((a, b) => b.created - a.created);
  }

  return {
    /** A new session and the first refresh token of its family. */
    async open(input: {
      userId: string;
      clientId: string;
      scope: string;
      /** A session id chosen beforehand (the authorization code grant names it before the session exists). */
      sid?: string;
      codeChallenge?: string;
      authTime?: number;
    }): Promise<{ session: SessionRecord; refreshToken: string }> {
      const t = now();
      const session: SessionRecord = {
        sid: input.sid ?? randomSecret(16),
        userId: input.userId,
        clientId: input.clientId,
        scope: input.scope,
        created: t,
        expiresAt: t + lifetimes.absoluteSeconds * 1000,
        refreshedAt: t,
        generation: 1,
        state: "active",
        ...(input.codeChallenge ? { codeChallenge: input.codeChallenge } : {}),
        ...(input.authTime === undefined ? {} : { authTime: input.authTime }),
      };
      const refreshToken = randomSecret(32);
      await store.create(session, t);
      await store.putRefresh(refreshToken, { sid: session.sid, generation: 1 }, session.expiresAt, t);
      // Indexed first, then the user's mark read: an "end every session" running meanwhile either
      // finds this session in the index or has set the mark this check sees (then it is ended here).
      await store.indexSession(session.userId, session.sid, store.usableUntil(session), t);
      if (await endedByMarks(session)) await end({ raw: "", record: session });
      return { session, refreshToken };
    },

    /**
     * Spends a refresh token of `clientId` and returns its successor. The scope
     * may narrow the new access token's scope only; the session keeps its own.
     */
    async rotate(input: { refreshToken: string; clientId: string; scope?: string }): Promise<{ session: SessionRecord; refreshToken: string; scopes: string[] }> {
      const seen = await inspect(input.refreshToken);
      if (!seen) throw invalidGrant("refresh token is invalid, expired or revoked");
      const { current } = seen;
      // Another client's token: refused, without touching a family that is not the caller's.
      if (current.record.clientId !== input.clientId) throw invalidGrant("refresh token was issued to another client");
      if (seen.reused) return reuse(current, "spent token presented");
      if (!seen.live) throw invalidGrant(seen.why);
      const scopes = narrowedScopes(input.scope, current.record.scope);
      const t = now();
      const next: SessionRecord = { ...current.record, generation: current.record.generation + 1, refreshedAt: t };
      if (!(await store.replace(current, next, t))) {
        // Someone changed the session since we read it: a concurrent use of the same token, or a logout.
        const latest = await store.get(next.sid);
        if (!latest || latest.record.state === "revoked") throw invalidGrant("the session has ended");
        return reuse(latest, "concurrent use");
      }
      const refreshToken = randomSecret(32);
      await store.putRefresh(refreshToken, { sid: next.sid, generation: next.generation }, next.expiresAt, t);
      return { session: next, refreshToken, scopes };
    },

    /** Ends a session and its family (logout). False when there is no such session. */
    async end(sid: string): Promise<boolean> {
      return end(sid ? await store.get(sid) : undefined);
    },

    /**
     * Ends the family of a session id even if the session is not stored (yet):
     * the revocation mark covers every token it may ever get, for as long as
     * a session opened now could live.
     */
    async endFamily(sid: string): Promise<void> {
      const current = await store.get(sid);
      if (current) {
        await end(current);
        return;
      }
      await revocations.revokeSession(sid, Math.ceil(now() / 1000) + lifetimes.absoluteSeconds + lifetimes.accessTokenTtlSeconds);
    },

    liveSessionsOf,

    /**
     * Ends every session of a user (log out everywhere, lock, erasure): first
     * the user's "not before" mark, which refuses every token issued before
     * now, then each indexed session with its own mark. Returns how many
     * live sessions there were.
     */
    async endAllOf(userId: string): Promise<number> {
      const t = now();
      const live = await liveSessionsOf(userId);
      await revocations.revokeSubject(userId, t, Math.ceil(t / 1000) + lifetimes.absoluteSeconds + lifetimes.accessTokenTtlSeconds);
      const indexed = await Promise.all((await store.indexedSessions(userId, t)).map((sid) => store.get(sid)));
      for (const stored of indexed) if (stored?.record.userId === userId) await end(stored);
      return live.length;
    },

    /** The session a refresh token belongs to, live or not (for revocation). */
    async sessionOf(refreshToken: string): Promise<SessionRecord | undefined> {
      return (await inspect(refreshToken))?.current.record;
    },

    /** The refresh token when it is live (for introspection). */
    async live(refreshToken: string): Promise<LiveRefreshToken | undefined> {
      const seen = await inspect(refreshToken);
      if (!seen?.live) return undefined;
      return { session: seen.current.record, expiresAt: deadline(seen.current.record) };
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;

/** RFC 6749 section 6: the requested scope may only narrow what the session was granted; absent = all of it. */
export function narrowedScopes(requested: string | undefined, granted: string): string[] {
  const all = granted ? granted.split(" ") : [];
  if (requested === undefined) return all;
  const scopes = parseScope(requested);
  if (!scopes) throw domainError("INVALID_SCOPE", "scope must be space-separated scope tokens (RFC 6749 section 3.3)");
  const extra = scopes.filter((s) => !all.includes(s));
  if (extra.length) throw domainError("INVALID_SCOPE", `scope not granted to this session: ${extra.join(" ")}`);
  return scopes;
}
