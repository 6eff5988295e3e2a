import type { SessionRecord, StoredSession } from "./session-store.ts";
import type { RevocationRead, SessionsContext } from "./context.ts";

/** Ends a stored session: its revocation mark first, then its record; false when there is none. */
export async function endStored(ctx: SessionsContext, current: StoredSession | undefined): Promise<boolean> {
  if (!current) return false;
  const s = current.record;
  const t = ctx.now();
  // The mark first: from here on the session's access tokens are refused, whatever else happens.
  await ctx.revocations.revokeSession(s.sid, Math.ceil(s.expiresAt / 1000) + ctx.lifetimes.accessTokenTtlSeconds);
  if (s.state !== "revoked") await ctx.store.put({ ...s, state: "revoked" }, t);
  return true;
}

/** Whether every session of the user was ended after `at` (ms): its "not before" mark is later. */
export async function userEndedAfter(ctx: SessionsContext, userId: string, at: number): Promise<boolean> {
  const notBefore = await ctx.revocations.subjectNotBefore(userId);
  return notBefore !== undefined && at < notBefore * 1000;
}

/**
 * Its own mark, or its user's "not before" (log out everywhere, lock) ended
 * it: one read of both marks, the session's creation standing for a
 * token's iat (refused when created before the mark's second). `read` and
 * `values`: the marks already read with the session (a refresh rotation's
 * hot path), when they were read for its user.
 */
export async function endedByMarks(
  ctx: SessionsContext,
  s: SessionRecord,
  read?: RevocationRead,
  values: (string | null)[] = [],
): Promise<boolean> {
  const iat = s.created / 1000;
  if (read && read.userId === s.userId) return read.isRevoked(values, iat);
  return ctx.revocations.isRevoked({ jti: "", sub: s.userId, sid: s.sid, iat });
}
