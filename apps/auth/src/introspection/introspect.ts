import type { ClientCredentials } from "@gatehouse/proto";
import { authenticateClient } from "../clients/authenticate-client.ts";
import type { ClientDirectory } from "../clients/client-directory.ts";
import type { AccessTokenClaims, AccessTokens } from "../tokens/access-token.ts";

export type Introspection = { active: false } | ({ active: true; token_type: "Bearer" } & AccessTokenClaims);

/**
 * RFC 7662: the calling client authenticates; any token that is invalid,
 * expired, revoked or unknown is just inactive. An application sees only its
 * own tokens (section 4: no token scanning by other clients); operators see all.
 */
export async function introspectToken(
  deps: { clients: ClientDirectory; tokens: AccessTokens },
  req: { client: ClientCredentials | undefined; token: string },
): Promise<Introspection> {
  const caller = await authenticateClient(deps.clients, req.client);
  const claims = req.token ? await deps.tokens.verify(req.token) : undefined;
  if (!claims) return { active: false };
  if (caller.kind !== "operator" && claims.client_id !== caller.clientId) return { active: false };
  return { active: true, token_type: "Bearer", ...claims };
}
