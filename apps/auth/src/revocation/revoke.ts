import { domainError } from "@gatehouse/errors";
import type { ClientCredentials } from "@gatehouse/proto";
import { authenticateClient } from "../clients/authenticate-client.ts";
import type { ClientDirectory } from "../clients/client-directory.ts";
import type { AccessTokens } from "../tokens/access-token.ts";
import type { RevocationList } from "../tokens/revocation-list.ts";

/**
 * RFC 7009: the client authenticates; a valid access token of its own is
 * revoked until it would have expired. Invalid, expired, unknown and opaque
 * tokens (there are no refresh tokens yet) answer success too (section 2.2).
 * token_type_hint is ignored (section 2.1 allows it): the token is always
 * tried as an access token.
 */
export async function revokeToken(
  deps: { clients: ClientDirectory; tokens: AccessTokens; revocations: RevocationList },
  req: { client: ClientCredentials | undefined; token: string },
): Promise<void> {
  const caller = await authenticateClient(deps.clients, req.client);
  const claims = req.token ? await deps.tokens.verify(req.token) : undefined;
  if (!claims) return;
  if (claims.client_id !== caller.clientId) {
    throw domainError("UNAUTHORIZED_CLIENT", "the token was issued to another client");
  }
  await deps.revocations.revoke(claims.jti, claims.exp);
}
