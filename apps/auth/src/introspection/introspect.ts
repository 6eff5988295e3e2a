import type { ClientCredentials } from "@gatehouse/proto";
import { authenticateClient } from "../clients/authenticate-client.ts";
import type { ClientDirectory } from "../clients/client-directory.ts";
import type { Sessions } from "../sessions/sessions.ts";
import type { AccessTokens } from "../tokens/access-token.ts";

// Three base64url parts: an access token (a JWT) to verify. Refresh tokens are
// one base64url part, so the shape alone tells them apart; verify parses the
// header (decoding it here too cost a second base64 and JSON parse per request).
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** RFC 7662 section 2.2 members of an active token. */
export interface ActiveToken {
  active: true;
  scope: string;
  client_id: string;
  sub: string;
  exp: number;
  iat: number;
  iss: string;
  aud: string[];
  /** Access tokens only (a refresh token's id would be the token itself). */
  jti?: string;
  /** "Bearer" for access tokens, "refresh_token" for refresh tokens (the RFC 7009 token type hint's name). */
  token_type: "Bearer" | "refresh_token";
}

export type Introspection = { active: false } | ActiveToken;

/**
 * RFC 7662: the calling client authenticates (confidential clients only:
 * a public client has nothing to prove who it is); any token that is
 * invalid, expired, revoked or unknown is just inactive. An application sees
 * only its own tokens and those of its entry points' public clients
 * (section 4: no token scanning by other clients); operators see all. JWTs
 * are access tokens, anything else is tried as a refresh token
 * (token_type_hint is not needed to tell them apart, and is ignored).
 */
export async function introspectToken(
  deps: { clients: ClientDirectory; tokens: AccessTokens; sessions: Sessions; settings: { issuer: string } },
  req: { client: ClientCredentials | undefined; token: string },
): Promise<Introspection> {
  const caller = await authenticateClient(deps.clients, req.client);
  const found = req.token ? await describe(deps, req.token) : undefined;
  if (!found) return { active: false };
  const { applicationId, ...token } = found;
  if (caller.kind !== "operator" && token.client_id !== caller.clientId && applicationId !== caller.clientId)
    return { active: false };
  return token;
}

async function describe(
  deps: { tokens: AccessTokens; sessions: Sessions; settings: { issuer: string } },
  token: string,
): Promise<(ActiveToken & { applicationId: string }) | undefined> {
  if (JWT_SHAPE.test(token)) {
    const claims = await deps.tokens.verify(token);
    if (!claims) return undefined;
    const { sid: _sid, code_challenge: _challenge, app_id: appId, ...published } = claims;
    return { active: true, token_type: "Bearer", ...published, applicationId: appId ?? claims.client_id };
  }
  const live = await deps.sessions.live(token);
  if (!live) return undefined;
  const s = live.session;
  return {
    active: true,
    token_type: "refresh_token",
    scope: s.scope,
    client_id: s.clientId,
    sub: s.userId,
    exp: Math.floor(live.expiresAt / 1000),
    iat: Math.floor(s.refreshedAt / 1000),
    iss: deps.settings.issuer,
    // A refresh token is presented to the authorization server only: it is its audience.
    aud: [deps.settings.issuer],
    applicationId: s.applicationId ?? s.clientId,
  };
}
