import { domainError } from "@gatehouse/errors";
import type { Logger } from "@gatehouse/logging";
import { randomSecret } from "@gatehouse/secrets";
import { narrowedScopes } from "../scopes/scope.ts";
import type { SessionLifetimes } from "../settings.ts";
import type { RevocationList } from "../revocation/revocation-list.ts";
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
/** A revocation check's reads made for `userId`'s session (RevocationList.read). */
type RevocationRead = ReturnType<RevocationList["read"]> & { userId: string };

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

  /** Whether every session of the user was ended after `at` (ms): its "not before" mark is later. */
  async function userEndedAfter(userId: string, at: number): Promise<boolean> {
    const notBefore = await revocations.subjectNotBefore(userId);
    return notBefore !== undefined && at < notBefore * 1000;
  }

  /**
   * Its own mark, or its user's "not before" (log out everywhere, lock) ended
   * it: one read of both marks, the session's creation standing for a
   * token's iat (refused when created before the mark's second). `read` and
   * `values`: the marks already read with the session (a refresh rotation's
   * hot path), when they were read for its user.
   */
  async function endedByMarks(
    s: SessionRecord,
    read?: RevocationRead,
    values: (string | null)[] = [],
  ): Promise<boolean> {
    const iat = s.created / 1000;
    if (read && read.userId === s.userId) return read.isRevoked(values, iat);
    return revocations.isRevoked({ jti: "", sub: s.userId, sid: s.sid, iat });
  }

  async function reuse(current: StoredSession, why: string): Promise<never> {
    deps.logger?.warn(
      { sid: current.record.sid, clientId: current.record.clientId },
      `refresh token reuse (${why}): session ended`,
    );
    await end(current);
    throw invalidGrant("refresh token was already used; the session has been ended");
  }

  /** The live session of a refresh token, or why not. Reuse is reported, not acted on. */
  async function inspect(
    token: string,
  ): Promise<{ current: StoredSession; live: boolean; reused: boolean; why: string } | undefined> {
    const found = token ? await store.findRefresh(token) : undefined;
    if (!found) return undefined;
    // The session and its marks in one read, when the record names the user (records written before it did not).
    const read = found.userId
      ? { userId: found.userId, ...revocations.read({ jti: "", sub: found.userId, sid: found.sid }) }
      : undefined;
    const { stored: current, values } = await store.getWith(found.sid, read?.keys ?? []);
    if (!current) return undefined;
    const s = current.record;
    const t = now();
    const reused = found.generation !== s.generation;
    let why = "";
    if (s.state === "revoked" || (await endedByMarks(s, read, values))) why = "the session has ended";
    else if (reused) why = "refresh token was already used";
    else if (t >= s.expiresAt) why = "the session has expired";
    else if (t >= s.refreshedAt + idleMs) why = "the refresh token expired unused";
    return { current, live: why === "", reused: reused && s.state === "active", why };
  }

  /** The user's sessions the index still holds. */
  async function indexedOf(userId: string, t: number): Promise<StoredSession[]> {
    const found = await Promise.all((await store.indexedSessions(userId, t)).map((sid) => store.get(sid)));
    return found.filter((stored): stored is StoredSession => stored?.record.userId === userId);
  }

  /** The sessions of a user that can still be refreshed (admin view), newest first. */
  async function liveSessionsOf(userId: string): Promise<SessionRecord[]> {
    const t = now();
    const live: SessionRecord[] = [];
    for (const { record: s } of await indexedOf(userId, t)) {
      if (s.state === "active" && t < deadline(s) && !(await endedByMarks(s))) live.push(s);
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
      /** The application a public client acts for (kept only when it differs from clientId). */
      applicationId?: string;
      operatorEmail?: string;
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
        ...(input.applicationId && input.applicationId !== input.clientId
          ? { applicationId: input.applicationId }
          : {}),
        ...(input.operatorEmail ? { operatorEmail: input.operatorEmail } : {}),
      };
      const refreshToken = randomSecret(32);
      // One step: the session, its refresh token and its user's index entry written, then its marks read. A
      // concurrent "end every session" writes the user's mark and then reads the index: it either finds this
      // session there or its mark is read here (ended at once: the mark's second has not begun). The index is
      // for listing and counting; revocation rests on that mark, which covers this session and its tokens.
      const read = {
        userId: session.userId,
        ...revocations.read({ jti: "", sub: session.userId, sid: session.sid, iat: t / 1000 }),
      };
      if (await endedByMarks(session, read, await store.create(session, refreshToken, t, read.keys)))
        await end({ raw: "", record: session });
      return { session, refreshToken };
    },

    /**
     * Spends a refresh token of `clientId` and returns its successor. The scope
     * may narrow the new access token's scope only; the session keeps its own.
     */
    async rotate(input: {
      refreshToken: string;
      clientId: string;
      scope?: string;
    }): Promise<{ session: SessionRecord; refreshToken: string; scopes: string[] }> {
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
      const refreshToken = randomSecret(32);
      if (!(await store.replace(current, next, refreshToken, t))) {
        // Someone changed the session since we read it: a concurrent use of the same token, or a logout.
        const latest = await store.get(next.sid);
        if (!latest || latest.record.state === "revoked") throw invalidGrant("the session has ended");
        return reuse(latest, "concurrent use");
      }
      return { session: next, refreshToken, scopes };
    },

    /**
     * Ends a session and its family (logout). False when there is no such
     * session; its access tokens are refused all the same, since the session
     * may only have been lost with the kv (a Redis restart) while they live.
     */
    async end(sid: string): Promise<boolean> {
      if (!sid) return false;
      const current = await store.get(sid);
      if (current) return end(current);
      await revocations.revokeSession(sid, Math.ceil(now() / 1000) + lifetimes.accessTokenTtlSeconds);
      return false;
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
      await revocations.revokeSession(
        sid,
        Math.ceil(now() / 1000) + lifetimes.absoluteSeconds + lifetimes.accessTokenTtlSeconds,
      );
    },

    liveSessionsOf,

    /** What began at `at` (an authorization code's login) is refused when every session of the user was ended since. */
    userEndedAfter,

    /**
     * Ends every session of a user (log out everywhere, lock, erasure). The
     * user's durable "not before" mark comes first and is what guarantees it:
     * it refuses every token and session from before the next whole second
     * (token iat has second precision), whatever the session index still
     * holds (it lives in the kv and is lost with it, like the sessions). Then
     * each indexed session is ended with its own mark, and the call returns
     * once that second has begun, so a login that follows is not refused.
     * Returns how many live sessions the index knew.
     */
    async endAllOf(userId: string): Promise<number> {
      const t = now();
      const notBefore = Math.floor(t / 1000) + 1;
      await revocations.revokeSubject(
        userId,
        notBefore,
        notBefore + lifetimes.absoluteSeconds + lifetimes.accessTokenTtlSeconds,
      );
      let live = 0;
      for (const stored of await indexedOf(userId, t)) {
        const s = stored.record;
        if (s.state === "revoked") continue;
        if (t < deadline(s) && !(await revocations.isSessionRevoked(s.sid))) live++;
        await end(stored);
      }
      const wait = notBefore * 1000 - now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      return live;
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
