import { domainError, validationError, type Violation } from "@gatehouse/errors";
import { parseScope } from "../scopes/scope.ts";
import type { AccessTokens } from "../tokens/access-token.ts";
import type { Sessions } from "./sessions.ts";

const MAX_ID_LENGTH = 256;

export interface IssuedUserSession {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  scope: string;
  sessionId: string;
}

/**
 * Opens a login session (the users service calls this after a successful
 * login): an access token for the user (sub = user id, sid = the session)
 * and the first refresh token of a new family. The caller is an internal
 * service that has already checked the user and the application.
 */
export async function issueUserSession(
  deps: { sessions: Sessions; tokens: AccessTokens },
  req: { userId: string; clientId: string; scope: string },
): Promise<IssuedUserSession> {
  const violations: Violation[] = [...idViolations("user_id", req.userId), ...idViolations("client_id", req.clientId)];
  const scopes = req.scope === "" ? [] : parseScope(req.scope);
  if (!scopes)
    violations.push({
      field: "scope",
      code: "invalid_format",
      description: "space-separated scope tokens (RFC 6749 section 3.3)",
    });
  if (violations.length || !scopes) throw validationError(violations);

  const { session, refreshToken } = await deps.sessions.open({
    userId: req.userId,
    clientId: req.clientId,
    scope: scopes.join(" "),
  });
  const issued = await deps.tokens.issue({
    clientId: session.clientId,
    subject: session.userId,
    scopes,
    sid: session.sid,
  });
  return {
    accessToken: issued.token,
    refreshToken,
    expiresIn: issued.expiresIn,
    scope: issued.claims.scope,
    sessionId: session.sid,
  };
}

/** Ends a session and its refresh family (logout); ending it again is fine while it is remembered. */
export async function revokeUserSession(deps: { sessions: Sessions }, req: { sessionId: string }): Promise<void> {
  if (!req.sessionId) throw validationError([{ field: "session_id", code: "required" }]);
  if (!(await deps.sessions.end(req.sessionId)))
    throw domainError("SESSION_NOT_FOUND", "no such session, or it has ended");
}

function idViolations(field: string, value: string): Violation[] {
  if (!value) return [{ field, code: "required" }];
  if (value.length > MAX_ID_LENGTH)
    return [{ field, code: "too_long", description: `at most ${MAX_ID_LENGTH} characters` }];
  if (/[\s\p{Cc}]/u.test(value))
    return [{ field, code: "invalid_format", description: "no spaces or control characters" }];
  return [];
}
