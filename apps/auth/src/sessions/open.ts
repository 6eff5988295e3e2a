import { randomSecret } from "@gatehouse/secrets";
import type { SessionRecord } from "./session-store.ts";
import type { SessionsContext } from "./context.ts";
import { endedByMarks, endStored } from "./marks.ts";

export interface OpenSession {
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
  sourceId?: string;
}

/** A new session and the first refresh token of its family. */
export async function openSession(
  ctx: SessionsContext,
  input: OpenSession,
): Promise<{ session: SessionRecord; refreshToken: string }> {
  const t = ctx.now();
  const session: SessionRecord = {
    sid: input.sid ?? randomSecret(16),
    userId: input.userId,
    clientId: input.clientId,
    scope: input.scope,
    created: t,
    expiresAt: t + ctx.lifetimes.absoluteSeconds * 1000,
    refreshedAt: t,
    generation: 1,
    state: "active",
    ...(input.codeChallenge ? { codeChallenge: input.codeChallenge } : {}),
    ...(input.authTime === undefined ? {} : { authTime: input.authTime }),
    ...(input.applicationId && input.applicationId !== input.clientId ? { applicationId: input.applicationId } : {}),
    ...(input.operatorEmail ? { operatorEmail: input.operatorEmail } : {}),
    ...(input.sourceId ? { sourceId: input.sourceId } : {}),
  };
  const refreshToken = randomSecret(32);
  // One step: the session, its refresh token and its user's index entry written, then its marks read. A
  // concurrent "end every session" writes the user's mark and then reads the index: it either finds this
  // session there or its mark is read here (ended at once: the mark's second has not begun). The index is
  // for listing and counting; revocation rests on that mark, which covers this session and its tokens.
  const read = {
    userId: session.userId,
    ...ctx.revocations.read({ jti: "", sub: session.userId, sid: session.sid, iat: t / 1000 }),
  };
  if (await endedByMarks(ctx, session, read, await ctx.store.create(session, refreshToken, t, read.keys)))
    await endStored(ctx, { raw: "", record: session });
  return { session, refreshToken };
}
