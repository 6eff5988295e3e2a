import type { SessionRecord, StoredSession } from "./session-store.ts";
import { deadline, indexedOf, type SessionsContext } from "./context.ts";
import { endedByMarks } from "./marks.ts";

/** A refresh token's session as found: live or not, and why not. */
export interface Inspected {
  current: StoredSession;
  live: boolean;
  /** A spent token of an active session was presented (reuse). */
  reused: boolean;
  why: string;
}

/** The live session of a refresh token, or why not. Reuse is reported, not acted on. */
export async function inspect(ctx: SessionsContext, token: string): Promise<Inspected | undefined> {
  const { store, revocations } = ctx;
  const found = token ? await store.findRefresh(token) : undefined;
  if (!found) return undefined;
  // The session and its marks in one read, when the record names the user (records written before it did not).
  const read = found.userId
    ? { userId: found.userId, ...revocations.read({ jti: "", sub: found.userId, sid: found.sid }) }
    : undefined;
  const { stored: current, values } = await store.getWith(found.sid, read?.keys ?? []);
  if (!current) return undefined;
  const s = current.record;
  const t = ctx.now();
  const reused = found.generation !== s.generation;
  let why = "";
  if (s.state === "revoked" || (await endedByMarks(ctx, s, read, values))) why = "the session has ended";
  else if (reused) why = "refresh token was already used";
  else if (t >= s.expiresAt) why = "the session has expired";
  else if (t >= s.refreshedAt + ctx.idleMs) why = "the refresh token expired unused";
  return { current, live: why === "", reused: reused && s.state === "active", why };
}

/** The sessions of a user that can still be refreshed (admin view), newest first. */
export async function liveSessionsOf(ctx: SessionsContext, userId: string): Promise<SessionRecord[]> {
  const t = ctx.now();
  const live: SessionRecord[] = [];
  for (const { record: s } of await indexedOf(ctx, userId, t)) {
    if (s.state === "active" && t < deadline(ctx, s) && !(await endedByMarks(ctx, s))) live.push(s);
  }
  return live.sort((a, b) => b.created - a.created);
}
