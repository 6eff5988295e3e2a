import { domainError } from "@gatehouse/errors";
import { ClientAuthMethod, type ClientCredentials } from "@gatehouse/proto";
import type { AuthenticatedClient, ClientDirectory } from "./client-directory.ts";

/**
 * RFC 6749 section 2.3: the client authenticates with client_secret_basic or
 * client_secret_post; anything else, or a wrong id or secret, is invalid_client.
 * The description never says which of id and secret was wrong.
 */
export async function authenticateClient(clients: ClientDirectory, presented: ClientCredentials | undefined): Promise<AuthenticatedClient> {
  if (!presented || presented.method === ClientAuthMethod.UNSPECIFIED) {
    throw domainError("INVALID_CLIENT", "client authentication required (client_secret_basic or client_secret_post)");
  }
  if (!presented.clientId || !presented.clientSecret) {
    throw domainError("INVALID_CLIENT", "client_id and client_secret are required");
  }
  const client = await clients.authenticate(presented.clientId, presented.clientSecret);
  if (!client) throw domainError("INVALID_CLIENT", "unknown client or wrong client secret");
  return client;
}
