import { indexedOf, deadline, type SessionsContext } from "./context.ts";
import { endStored } from "./marks.ts";

/**
 * Ends a session and its family (logout). False when there is no such
 * session; its access tokens are refused all the same, since the session
 * may only have been lost with the kv (a Redis restart) while they live.
 */
export async function endSessionById(ctx: SessionsContext, sid: string): Promise<boolean> {
  if (!sid) return false;
  const current = await ctx.store.get(sid);
  if (current) return endStored(ctx, current);
  await ctx.revocations.revokeSession(sid, Math.ceil(ctx.now() / 1000) + ctx.lifetimes.accessTokenTtlSeconds);
  return false;
}

/**
 * Ends the family of a session id even if the session is not stored (yet):
 * the revocation mark covers every token it may ever get, for as long as
 * a session opened now could live.
 */
export async function endFamily(ctx: SessionsContext, sid: string): Promise<void> {
  const current = await ctx.store.get(sid);
  if (current) {
    await endStored(ctx, current);
    return;
  }
  const { absoluteSeconds, accessTokenTtlSeconds } = ctx.lifetimes;
  await ctx.revocations.revokeSession(sid, Math.ceil(ctx.now() / 1000) + absoluteSeconds + accessTokenTtlSeconds);
}

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
export async function endAllOf(ctx: SessionsContext, userId: string): Promise<number> {
  const t = ctx.now();
  const notBefore = Math.floor(t / 1000) + 1;
  const { absoluteSeconds, accessTokenTtlSeconds } = ctx.lifetimes;
  await ctx.revocations.revokeSubject(userId, notBefore, notBefore + absoluteSeconds + accessTokenTtlSeconds);
  let live = 0;
  for (const stored of await indexedOf(ctx, userId, t)) {
    const s = stored.record;
    if (s.state === "revoked") continue;
    if (t < deadline(ctx, s) && !(await ctx.revocations.isSessionRevoked(s.sid))) live++;
    await endStored(ctx, stored);
  }
  const wait = notBefore * 1000 - ctx.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  return live;
}
