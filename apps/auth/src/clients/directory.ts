import { Code, ConnectError, type Client } from "@connectrpc/connect";
import { errorFacts } from "@gatehouse/errors";
import { ClientKind, type RegistryService } from "@gatehouse/proto";
import { sha256Base64url } from "@gatehouse/secrets";

export interface AuthenticatedClient {
  clientId: string;
  kind: "application" | "operator";
  allowedScopes: string[];
  redirectUris: string[];
  secretVersion: number;
}

/** Who the clients are: the token server asks, the registry answers. */
export interface ClientDirectory {
  authenticate(clientId: string, secret: string): Promise<AuthenticatedClient | undefined>;
}

/**
 * The registry's AuthenticateClient over RPC, with successful answers kept for
 * `cacheMs` (default 30 s) so the hot client_credentials path costs no RPC. A
 * rotated secret is honoured by every replica within that time. Failures are
 * never cached: each wrong secret is checked again.
 */
export function registryClientDirectory(registry: Client<typeof RegistryService>, opts: { cacheMs?: number } = {}): ClientDirectory {
  const cacheMs = opts.cacheMs ?? 30_000;
  const cache = new Map<string, { client: AuthenticatedClient; until: number }>();
  return {
    async authenticate(clientId, secret) {
      const key = `${clientId}\u0000${sha256Base64url(secret)}`;
      const hit = cache.get(key);
      if (hit && hit.until > Date.now()) return hit.client;
      let res;
      try {
        res = await registry.authenticateClient({ clientId, clientSecret: secret });
      } catch (err) {
        if (err instanceof ConnectError && (errorFacts(err).reason === "INVALID_CLIENT" || err.code === Code.InvalidArgument)) return undefined;
        throw err;
      }
      const client: AuthenticatedClient = {
        clientId: res.clientId,
        kind: res.kind === ClientKind.OPERATOR ? "operator" : "application",
        allowedScopes: [...res.allowedScopes],
        redirectUris: [...res.redirectUris],
        secretVersion: res.secretVersion,
      };
      if (cache.size >= 10_000) cache.clear();
      cache.set(key, { client, until: Date.now() + cacheMs });
      return client;
    },
  };
}
