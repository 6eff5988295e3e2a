import type { GrantContext, GrantParameters, TokenResponse } from "./grant.ts";

/**
 * RFC 6749 section 6: a client trades a refresh token of its own for a new
 * access token and, since refresh tokens rotate (RFC 9700 section 4.14.2), a
 * new refresh token; the one presented is spent. invalid_grant for a token
 * that is unknown, another client's, spent (which also ends its session),
 * revoked, or past the session's absolute or idle lifetime. `scope` may
 * only narrow the new access token. When the session was granted `openid`,
 * a new ID token comes too (OpenID Connect Core section 12.2: the original
 * auth_time, no nonce).
 */
export const grantType = "refresh_token";

export const parameters: GrantParameters = { required: ["refresh_token"], optional: ["scope"], forbidden: [] };

/** Public clients' refresh tokens rotate like everyone's (RFC 9700 section 4.14.2). */
export const publicClients = true;

export async function handler({ client, params, tokens, sessions, idTokens }: GrantContext): Promise<TokenResponse> {
  const { session, refreshToken, scopes } = await sessions.rotate({
    refreshToken: params.refresh_token ?? "",
    clientId: client.clientId,
    ...(params.scope === undefined ? {} : { scope: params.scope }),
  });
  const issued = await tokens.issue({
    clientId: session.clientId,
    applicationId: session.applicationId ?? client.applicationId,
    subject: session.userId,
    scopes,
    sid: session.sid,
    ...(session.codeChallenge ? { codeChallenge: session.codeChallenge } : {}),
    ...(session.operatorEmail ? { email: session.operatorEmail } : {}),
  });
  const response: TokenResponse = {
    accessToken: issued.token,
    tokenType: "Bearer",
    expiresIn: issued.expiresIn,
    scope: issued.claims.scope,
    refreshToken,
  };
  if (session.scope.split(" ").includes("openid")) {
    response.idToken = await idTokens.issue({
      clientId: session.clientId,
      userId: session.userId,
      sid: session.sid,
      authTime: session.authTime ?? Math.floor(session.created / 1000),
      accessToken: issued.token,
    });
  }
  return response;
}
