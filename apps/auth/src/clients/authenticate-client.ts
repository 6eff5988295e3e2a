import { domainError } from "@gatehouse/errors";
import { ClientAuthMethod, type ClientCredentials } from "@gatehouse/proto";
import type { AuthenticatedClient, ClientDirectory } from "./client-directory.ts";

/**
 * RFC 6749 section 2.3: the client authenticates with client_secret_basic or
 * client_secret_post; where `allowPublic`, a public client (an entry point
 * id) identifies itself with its client_id alone (method none). Anything
 * else, or a wrong id or secret, is invalid_client; the description never
 * says which of id and secret was wrong.
 */
export async function authenticateClient(
  clients: ClientDirectory,
  presented: ClientCredentials | undefined,
  opts: { allowPublic?: boolean } = {},
): Promise<AuthenticatedClient> {
  if (!presented || presented.method === ClientAuthMethod.UNSPECIFIED) {
    throw domainError("INVALID_CLIENT", "client authentication required (client_secret_basic or client_secret_post)");
  }
  if (presented.method === ClientAuthMethod.NONE) {
    if (!opts.allowPublic)
      throw domainError("INVALID_CLIENT", "client authentication required (client_secret_basic or client_secret_post)");
    const client =
      presented.clientId && !presented.clientSecret ? await clients.publicClient(presented.clientId) : undefined;
    if (!client) throw domainError("INVALID_CLIENT", "unknown public client");
    return client;
  }
  if (!presented.clientId || !presented.clientSecret) {
    throw domainError("INVALID_CLIENT", "client_id and client_secret are required");
  }
  const client = await clients.authenticate(
    presented.clientId,
    presented.clientSecret,
    presented.alternateClientSecret || undefined,
  );
  if (!client) throw domainError("INVALID_CLIENT", "unknown client or wrong client secret");
  return client;
}
