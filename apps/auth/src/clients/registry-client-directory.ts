import type { Client } from "@connectrpc/connect";
import { errorFacts } from "@gatehouse/errors";
import { ClientKind, type RegistryService } from "@gatehouse/proto";
import { sha256Base64url } from "@gatehouse/secrets";
import type { AuthenticatedClient, ClientDirectory } from "./client-directory.ts";

const DEFAULT_CACHE_MS = 30_000;
// Past this many entries, expired ones are swept on insert so the map stays bounded by live clients.
const SWEEP_ABOVE = 1_000;

/**
 * Client authentication through the registry's AuthenticateClient RPC.
 *
 * Successful authentications are cached in memory for `cacheMs` (30 s by
 * default), keyed by client id and the SHA-256 of the secret, so the hot
 * client_credentials path costs no RPC. Consequence: after a secret is
 * rotated, a replica that cached the old secret keeps accepting it for up to
 * `cacheMs`; every replica honours the new secret at once (it misses the
 * cache). Failures are never cached, so a wrong secret always asks the registry.
 * `forget(clientId)` drops a client's entries at once: the launcher calls it
 * on the registry's change notice (a rotation), so the old secret stops
 * working everywhere without waiting for `cacheMs`.
 */
export function registryClientDirectory(registry: Client<typeof RegistryService>, opts: { cacheMs?: number } = {}): ClientDirectory {
  const cacheMs = opts.cacheMs ?? DEFAULT_CACHE_MS;
  const cache = new Map<string, { client: AuthenticatedClient; until: number }>();

  const sweep = (now: number) => {
    for (const [k, e] of cache) if (e.until <= now) cache.delete(k);
  };

  // Bumped by forget: an answer that was in flight meanwhile may predate the rotation, so it is not cached.
  let generation = 0;
  return {
    forget(clientId) {
      generation++;
      const prefix = `${clientId}\u0000`;
      for (const k of cache.keys()) if (k.startsWith(prefix)) cache.delete(k);
    },

    async authenticate(clientId, secret) {
      const key = `${clientId}\u0000${sha256Base64url(secret)}`;
      const now = Date.now();
      const hit = cache.get(key);
      if (hit && hit.until > now) return hit.client;
      if (hit) cache.delete(key);
      const asked = generation;
      let res;
      try {
        res = await registry.authenticateClient({ clientId, clientSecret: secret });
      } catch (err) {
        if (errorFacts(err).reason === "INVALID_CLIENT") return undefined;
        throw err;
      }
      const client: AuthenticatedClient = {
        clientId: res.clientId,
        kind: res.kind === ClientKind.OPERATOR ? "operator" : "application",
        allowedScopes: [...res.allowedScopes],
        redirectUris: [...res.redirectUris],
        secretVersion: res.secretVersion,
      };
      if (cacheMs > 0 && asked === generation) {
        if (cache.size >= SWEEP_ABOVE) sweep(now);
        cache.set(key, { client, until: now + cacheMs });
      }
      return client;
    },
  };
}
