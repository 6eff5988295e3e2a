// RFC 6750 section 3: the WWW-Authenticate challenges of bearer-protected routes.

export const BEARER_REALM = "gatehouse";

export type BearerError = "invalid_token" | "insufficient_scope";

/**
 * The RFC 6750 section 3 challenge: `Bearer realm="gatehouse"`, with the
 * error, its description and the scope needed when there is one. Values are
 * quoted-strings, so quotes and backslashes are dropped from the description.
 */
export function bearerChallenge(error?: BearerError, description?: string, scope?: string): string {
  const parts = [`realm="${BEARER_REALM}"`];
  if (error) parts.push(`error="${error}"`);
  if (description) parts.push(`error_description="${description.replace(/["\\\p{Cc}]/gu, "")}"`);
  if (scope) parts.push(`scope="${scope}"`);
  return `Bearer ${parts.join(", ")}`;
}

/**
 * The challenge every 401/403 of a bearer-protected route carries (RFC 6750
 * section 3) unless a more precise one was set: 401 invalid_token, 403
 * insufficient_scope. Contract section 9 names one of the two errors on every
 * challenge, so the other 403s (the token is fine but does not reach this
 * request: another user's record, a wrong password) are insufficient_scope
 * too, described; never invalid_token, which would send the client for a new token.
 */
export function defaultChallenge(status: number, reason: string): string | undefined {
  if (status === 401) return bearerChallenge("invalid_token");
  if (status === 403)
    return reason === "INSUFFICIENT_SCOPE"
      ? bearerChallenge("insufficient_scope")
      : bearerChallenge("insufficient_scope", "the token does not allow this request");
  return undefined;
}
