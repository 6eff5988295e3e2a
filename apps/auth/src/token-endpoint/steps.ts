import { domainError } from "@gatehouse/errors";
import { ClientAuthMethod, type ClientCredentials } from "@gatehouse/proto";
import type { AuthenticatedClient, ClientDirectory } from "../clients/directory.ts";
import type { Grant } from "../grants/index.ts";

// The token endpoint as a chain of small named steps (node-oidc-provider style).

/** Step 1: the client is who it says (client_secret_basic or client_secret_post). */
export async function authenticateClient(directory: ClientDirectory, creds: ClientCredentials | undefined): Promise<AuthenticatedClient> {
  const method = creds?.method ?? ClientAuthMethod.UNSPECIFIED;
  if (method === ClientAuthMethod.UNSPECIFIED || !creds?.clientId || !creds.clientSecret) {
    throw domainError("INVALID_CLIENT", "client authentication failed");
  }
  const client = await directory.authenticate(creds.clientId, creds.clientSecret);
  if (!client) throw domainError("INVALID_CLIENT", "client authentication failed");
  return client;
}

/** Step 2: the grant type is one we serve. */
export function selectGrant(grants: ReadonlyMap<string, Grant>, grantType: string): Grant {
  if (!grantType) throw domainError("INVALID_REQUEST", "grant_type is required");
  const grant = grants.get(grantType);
  if (!grant) throw domainError("UNSUPPORTED_GRANT_TYPE", `grant_type ${grantType} is not supported`);
  return grant;
}

/** Step 3: the grant's required parameters are present. */
export function checkParameters(grant: Grant, params: Record<string, string>): void {
  const missing = grant.parameters.required.filter((p) => !params[p]);
  if (missing.length) throw domainError("INVALID_REQUEST", `missing parameter: ${missing.join(", ")}`);
}
