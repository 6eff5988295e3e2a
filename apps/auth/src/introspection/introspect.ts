import type { ClientCredentials } from "@gatehouse/proto";
import { authenticateClient } from "../clients/authenticate-client.ts";
import type { ClientDirectory } from "../clients/client-directory.ts";
import type { Sessions } from "../sessions/sessions.ts";
import { looksLikeJwt, type AccessTokens } from "../tokens/access-token.ts";

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
  /** "Bearer" for access tokens; refresh tokens have no token type (RFC 6749 section 7.1). */
  token_type?: "Bearer";
}

export type Introspection = { active: false } | ActiveToken;

/**
 * RFC 7662: the calling client authenticates; any token that is invalid,
 * expired, revoked or unknown is just inactive. An application sees only its
 * own tokens (section 4: no token scanning by other clients); operators see all.
 * JWTs are access tokens, anything else is tried as a refresh token
 * (token_type_hint is not needed to tell them apart, and is ignored).
 */
export async function introspectToken(
  deps: { clients: ClientDirectory; tokens: AccessTokens; sessions: Sessions; settings: { issuer: string } },
  req: { client: ClientCredentials | undefined; token: string },
): Promise<Introspection> {
  const caller = await authenticateClient(deps.clients, req.client);
  const found = req.token ? await describe(deps, req.token) : undefined;
  if (!found) return { active: false };
  if (caller.kind !== "operator" && found.client_id !== caller.clientId) return { active: false };
  return found;
}

async function describe(
  deps: { tokens: AccessTokens; sessions: Sessions; settings: { issuer: string } },
  token: string,
): Promise<ActiveToken | undefined> {
  if (looksLikeJwt(token)) {
    const claims = await deps.tokens.verify(token);
    if (!claims) return undefined;
    const { sid: _sid, ...published } = claims;
    return { active: true, token_type: "Bearer", ...published };
  }
  const live = await deps.sessions.live(token);
  if (!live) return undefined;
  const s = live.session;
  return {
    active: true,
    scope: s.scope,
    client_id: s.clientId,
    sub: s.userId,
    exp: Math.floor(live.expiresAt / 1000),
    iat: Math.floor(s.refreshedAt / 1000),
    iss: deps.settings.issuer,
    aud: [],
  };
}
