import { randomSecret } from "@gatehouse/secrets";
import { narrowedScopes } from "../scopes/scope.ts";
import type { SessionRecord, StoredSession } from "./session-store.ts";
import { invalidGrant, type SessionsContext } from "./context.ts";
import { inspect } from "./inspect.ts";
import { endStored } from "./marks.ts";

/** A spent token presented again, or a lost race for the same token: the whole family ends. */
async function reuse(ctx: SessionsContext, current: StoredSession, why: string): Promise<never> {
  ctx.logger?.warn(
    { sid: current.record.sid, clientId: current.record.clientId },
    `refresh token reuse (${why}): session ended`,
  );
  await endStored(ctx, current);
  throw invalidGrant("refresh token was already used; the session has been ended");
}

/** A refresh token presented by `clientId`, with the scope its new access token asks for (absent: all of it). */
export interface RotateRefreshToken {
  refreshToken: string;
  clientId: string;
  scope?: string;
}

/**
 * Spends a refresh token of `clientId` and returns its successor. The scope
 * may narrow the new access token's scope only; the session keeps its own.
 */
export async function rotateRefreshToken(
  ctx: SessionsContext,
  input: RotateRefreshToken,
): Promise<{ session: SessionRecord; refreshToken: string; scopes: string[] }> {
  const seen = await inspect(ctx, input.refreshToken);
  if (!seen) throw invalidGrant("refresh token is invalid, expired or revoked");
  const { current } = seen;
  // Another client's token: refused, without touching a family that is not the caller's.
  if (current.record.clientId !== input.clientId) throw invalidGrant("refresh token was issued to another client");
  if (seen.reused) return reuse(ctx, current, "spent token presented");
  if (!seen.live) throw invalidGrant(seen.why);
  const scopes = narrowedScopes(input.scope, current.record.scope);
  const t = ctx.now();
  const next: SessionRecord = { ...current.record, generation: current.record.generation + 1, refreshedAt: t };
  const refreshToken = randomSecret(32);
  if (!(await ctx.store.replace(current, next, refreshToken, t))) {
    // Someone changed the session since we read it: a concurrent use of the same token, or a logout.
    const latest = await ctx.store.get(next.sid);
    if (!latest || latest.record.state === "revoked") throw invalidGrant("the session has ended");
    return reuse(ctx, latest, "concurrent use");
  }
  return { session: next, refreshToken, scopes };
}
