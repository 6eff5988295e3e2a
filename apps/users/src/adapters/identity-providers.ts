import { Code, ConnectError, type Client } from "@connectrpc/connect";
import { CLIENT_SECRET_LABEL, type ProviderSettings } from "@gatehouse/idp";
import type { IdentityProvider, IdentityProvidersService } from "@gatehouse/proto";
import type { KeyRing } from "@gatehouse/secrets";
import type { UpstreamClients } from "../ports.ts";

/** The registry's provider as the round trip reads it (the one mapping of that message here). */
const settingsOf = (p: IdentityProvider): ProviderSettings => ({
  key: p.key,
  displayName: p.displayName,
  type: p.type as ProviderSettings["type"],
  preset: p.preset,
  issuer: p.issuer,
  clientId: p.clientId,
  scopes: p.scopes,
  trustEmail: p.trustEmail,
  authorizationEndpoint: p.authorizationEndpoint,
  tokenEndpoint: p.tokenEndpoint,
  userinfoEndpoint: p.userinfoEndpoint,
  claims: p.claims,
});

/** Providers by key from the registry (internal scope), the sealed secret opened with this deployment's SECRET_KEY. */
export function registryUpstreamClients(
  client: Client<typeof IdentityProvidersService>,
  keys: KeyRing,
): UpstreamClients {
  const box = keys.box(CLIENT_SECRET_LABEL);
  return async (key) => {
    try {
      const res = await client.getUpstreamClient({ key });
      return { settings: settingsOf(res.provider!), secret: box.open(res.clientSecretSealed, key) };
    } catch (err) {
      if (ConnectError.from(err).code === Code.NotFound) return undefined;
      throw err;
    }
  };
}
