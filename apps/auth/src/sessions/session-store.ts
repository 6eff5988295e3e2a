import type { Kv } from "@gatehouse/kv";
import { createUserIndex } from "./user-index.ts";

/** A user's login session; its refresh family is every refresh token issued for it. */
export interface SessionRecord {
  sid: string;
  userId: string;
  clientId: string;
  /** The scope granted at login, space separated (a refresh may narrow its access token, never this). */
  scope: string;
  /** Times in milliseconds since the epoch. */
  created: number;
  /** Absolute end: no refresh at or after it (REFRESH_TOKEN_TTL). */
  expiresAt: number;
  /** When the current refresh token was issued: the idle window starts here. */
  refreshedAt: number;
  /** Generation of the current refresh token; older ones of the family are spent. */
  generation: number;
  state: "active" | "revoked";
  /** The PKCE challenge of the authorization code the session came from; its access tokens carry it. */
  codeChallenge?: string;
  /** When the user authenticated (seconds since the epoch), for ID tokens (auth_time). */
  authTime?: number;
  /** The application of a public client's session (clientId is then its entry point id). */
  applicationId?: string;
  /** An operator person's email (console sign-in): every access token of the session carries it. */
  operatorEmail?: string;
  /** The device kind a device authorization named (source_id: "itv", "game_console"). */
  sourceId?: string;
}

/** What a refresh token's hash points to. */
export interface RefreshRecord {
  sid: string;
  generation: number;
  /** The session's user, so that its revocation marks are read with the session (absent from records written before it was kept). */
  userId?: string;
}

/** A session as stored, with the exact stored text (the expected value of a compare-and-set). */
export interface StoredSession {
  raw: string;
  record: SessionRecord;
}

const sessionKey = (sid: string) => `session:${sid}`;
const refreshKey = (hash: string) => `refresh:${hash}`;

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Sessions and refresh-token hashes in the shared kv (Redis, or in-process).
 * Refresh tokens are stored only as a keyed hash. The session key lives until
 * it can no longer be refreshed plus one access-token lifetime, so a logout
 * still finds it while any of its access tokens can be in use.
 */
export function createSessionStore(deps: {
  kv: Kv;
  hashToken: (token: string) => string;
  idleMs: number;
  accessTokenTtlMs: number;
}) {
  const { kv } = deps;
  const sessionTtl = (s: SessionRecord, now: number) =>
    seconds(Math.min(s.expiresAt, s.refreshedAt + deps.idleMs) + deps.accessTokenTtlMs - now);
  /** A refresh token's record (its session's current generation), kept for the session's whole life so that reuse of a spent one is recognised. */
  const refreshEntry = (token: string, s: SessionRecord, now: number) => {
    const record: RefreshRecord = { sid: s.sid, generation: s.generation, userId: s.userId };
    return {
      key: refreshKey(deps.hashToken(token)),
      value: JSON.stringify(record),
      ttlSeconds: seconds(s.expiresAt - now),
    };
  };

  const index = createUserIndex(kv);

  /** A session and other keys (its revocation marks), read in one round trip. */
  async function getWith(
    sid: string,
    keys: string[],
  ): Promise<{ stored: StoredSession | undefined; values: (string | null)[] }> {
    const [raw, ...values] = await kv.getMany([sessionKey(sid), ...keys]);
    return { stored: raw == null ? undefined : { raw, record: JSON.parse(raw) as SessionRecord }, values };
  }

  return {
    indexedSessions: index.indexedSessions,

    async get(sid: string): Promise<StoredSession | undefined> {
      return (await getWith(sid, [])).stored;
    },

    getWith,

    /**
     * A new session, its first refresh token and its entry in its user's
     * index, written in one step, then `reads` (its revocation marks): one
     * round trip. Returns what `reads` held.
     */
    async create(s: SessionRecord, refreshToken: string, now: number, reads: string[]): Promise<(string | null)[]> {
      // The index entry lives as long as the session and its access tokens can be in use.
      const indexed = index.indexWrite(s.userId, s.sid, s.expiresAt + deps.accessTokenTtlMs, now);
      const session = { key: sessionKey(s.sid), value: JSON.stringify(s), ttlSeconds: sessionTtl(s, now) };
      return kv.batch(
        [{ op: "set", ...session }, { op: "set", ...refreshEntry(refreshToken, s, now) }, indexed],
        reads,
      );
    },

    /**
     * Replaces the session only if it is still exactly `current`: of racing
     * writers one wins, and only the winner's new refresh token is stored (in
     * the same step and round trip).
     */
    async replace(current: StoredSession, next: SessionRecord, refreshToken: string, now: number): Promise<boolean> {
      return kv.compareAndSet(
        sessionKey(next.sid),
        current.raw,
        JSON.stringify(next),
        sessionTtl(next, now),
        refreshEntry(refreshToken, next, now),
      );
    },

    /** Overwrites unconditionally (ending a session wins over any concurrent rotation). */
    async put(s: SessionRecord, now: number): Promise<void> {
      await kv.set(sessionKey(s.sid), JSON.stringify(s), sessionTtl(s, now));
    },

    async findRefresh(token: string): Promise<RefreshRecord | undefined> {
      const raw = await kv.get(refreshKey(deps.hashToken(token)));
      return raw === null ? undefined : (JSON.parse(raw) as RefreshRecord);
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
