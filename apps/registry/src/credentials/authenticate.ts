import { domainError } from "@gatehouse/errors";
import { CLIENT_SCOPES } from "@gatehouse/rpc";
import type { ClientSecrets } from "./secrets.ts";
import type { ClientKindName, CredentialStore } from "./store.ts";

const MAX_CLIENT_ID_LENGTH = 256;

export interface AuthenticatedClient {
  clientId: string;
  kind: ClientKindName;
  allowedScopes: readonly string[];
  redirectUris: string[];
  secretVersion: number;
}

/**
 * Checks presented client credentials. An unknown client and a wrong secret
 * give the same error after the same MAC work, so neither the answer nor its
 * timing tells whether a client_id exists.
 */
export async function authenticateClient(
  store: CredentialStore,
  secrets: ClientSecrets,
  clientId: string,
  presentedSecret: string,
): Promise<AuthenticatedClient> {
  const client = clientId && clientId.length <= MAX_CLIENT_ID_LENGTH ? await store.find(clientId) : undefined;
  const ok = secrets.matches(clientId, presentedSecret, client?.secretMac);
  if (!client || !ok || !presentedSecret) throw domainError("INVALID_CLIENT");
  return {
    clientId: client.clientId,
    kind: client.kind,
    allowedScopes: CLIENT_SCOPES[client.kind],
    redirectUris: client.redirectUris,
    secretVersion: client.secretVersion,
  };
}
