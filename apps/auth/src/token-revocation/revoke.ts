import { domainError } from "@gatehouse/errors";
import type { ClientCredentials } from "@gatehouse/proto";
import { authenticateClient } from "../clients/authenticate-client.ts";
import type { ClientDirectory } from "../clients/client-directory.ts";
import type { Sessions } from "../sessions/sessions.ts";
import { looksLikeJwt, type AccessTokens } from "../tokens/access-token.ts";
import type { RevocationList } from "../revocation/revocation-list.ts";

/**
 * RFC 7009: the client authenticates (a public client names itself with its
 * client_id, section 2.1), then revokes a token of its own.
 * - An access token is revoked alone until it would have expired (also one of
 *   a login session: the session and its other tokens go on).
 * - A refresh token (current or spent) ends its whole session: the refresh
 *   family and every access token of the session (section 2.1).
 * Invalid, expired and unknown tokens answer success too (section 2.2).
 * token_type_hint is ignored (section 2.1 allows it): JWTs are access tokens.
 */
export async function revokeToken(
  deps: { clients: ClientDirectory; tokens: AccessTokens; revocations: RevocationList; sessions: Sessions },
  req: { client: ClientCredentials | undefined; token: string },
): Promise<void> {
  const caller = await authenticateClient(deps.clients, req.client, { allowPublic: true });
  if (!req.token) return;
  const notYours = () => domainError("UNAUTHORIZED_CLIENT", "the token was issued to another client");
  if (looksLikeJwt(req.token)) {
    const claims = await deps.tokens.verify(req.token);
    if (!claims) return;
    if (claims.client_id !== caller.clientId) throw notYours();
    await deps.revocations.revoke(claims.jti, claims.exp);
    return;
  }
  const session = await deps.sessions.sessionOf(req.token);
  if (!session) return;
  if (session.clientId !== caller.clientId) throw notYours();
  await deps.sessions.end(session.sid);
}
