import { Code, ConnectError, type Client } from "@connectrpc/connect";
import { errorFacts } from "@gatehouse/errors";
import { ClientKind, type RegistryService } from "@gatehouse/proto";
import { sha256Base64url } from "@gatehouse/secrets";
import { RESUBSCRIBED } from "@gatehouse/kv";
import type { AuthenticatedClient, ClientDirectory } from "./client-directory.ts";

const DEFAULT_CACHE_MS = 30_000;
// Past this many entries, expired ones are swept on insert so the map stays bounded by live clients.
const SWEEP_ABOVE = 1_000;

/** A small time-bounded map (entries expire after `ms`; expired ones are swept once it grows). */
function expiringMap<V>(ms: number) {
  const entries = new Map<string, { value: V; until: number }>();
  return {
    get(key: string): { value: V } | undefined {
      const hit = entries.get(key);
      if (hit && hit.until > Date.now()) return hit;
      if (hit) entries.delete(key);
      return undefined;
    },
    set(key: string, value: V) {
      if (ms <= 0) return;
      const now = Date.now();
      if (entries.size >= SWEEP_ABOVE) for (const [k, e] of entries) if (e.until <= now) entries.delete(k);
      if (entries.size >= SWEEP_ABOVE * 10) entries.clear();
      entries.set(key, { value, until: now + ms });
    },
    deleteWhere(test: (key: string) => boolean) {
      for (const k of entries.keys()) if (test(k)) entries.delete(k);
    },
  };
}

/**
 * Client authentication through the registry's AuthenticateClient RPC, and
 * public clients (entry points) through GetEntrypoint.
 *
 * Successful authentications are cached in memory for `cacheMs` (30 s by
 * default), keyed by client id and the SHA-256 of the secret, so the hot
 * client_credentials path costs no RPC. Consequence: after a secret is
 * rotated, a replica that cached the old secret keeps accepting it for up to
 * `cacheMs`; every replica honours the new secret at once (it misses the
 * cache). Failures are never cached, so a wrong secret always asks the
 * registry. Public clients are cached the same time, unknown ids included
 * (they carry no secret to guess).
 * `forget(clientId)` drops a client's entries (and its entry points') at once:
 * the launcher calls it on the registry's change notice (a rotation), so the
 * old secret stops working everywhere without waiting for `cacheMs`.
 */
export function registryClientDirectory(
  registry: Client<typeof RegistryService>,
  opts: { cacheMs?: number } = {},
): ClientDirectory {
  const cacheMs = opts.cacheMs ?? DEFAULT_CACHE_MS;
  const authenticated = expiringMap<AuthenticatedClient>(cacheMs);
  const publicClients = expiringMap<AuthenticatedClient | undefined>(cacheMs);
  // Bumped by forget (see check).
  let generation = 0;

  async function check(clientId: string, secret: string): Promise<AuthenticatedClient | undefined> {
    const key = `${clientId}\u0000${sha256Base64url(secret)}`;
    const hit = authenticated.get(key);
    if (hit) return hit.value;
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
      applicationId: res.clientId,
      allowedScopes: [...res.allowedScopes],
      redirectUris: [...res.redirectUris],
      secretVersion: res.secretVersion,
    };
    // An answer that was in flight while the client was forgotten may predate the rotation: not cached.
    if (asked === generation) authenticated.set(key, client);
    return client;
  }

  return {
    forget(clientId) {
      generation++;
      if (clientId === RESUBSCRIBED)
        return void (authenticated.deleteWhere(() => true), publicClients.deleteWhere(() => true));
      authenticated.deleteWhere((k) => k.startsWith(`${clientId}\u0000`));
      // Its entry points (`<clientId>_<key>`), an unknown one included: one may have just been added.
      publicClients.deleteWhere((k) => k.startsWith(`${clientId}_`));
    },

    async authenticate(clientId, secret, alternateSecret) {
      if (alternateSecret === undefined || alternateSecret === secret) return check(clientId, secret);
      // Both readings are checked every time (in parallel), whichever is right.
      const [a, b] = await Promise.all([check(clientId, secret), check(clientId, alternateSecret)]);
      return a ?? b;
    },

    async publicClient(clientId) {
      const hit = publicClients.get(clientId);
      if (hit) return hit.value;
      let client: AuthenticatedClient | undefined;
      try {
        const res = await registry.getEntrypoint({ entrypointId: clientId });
        client = {
          clientId,
          kind: "public",
          applicationId: res.clientId,
          allowedScopes: [],
          redirectUris: [],
          secretVersion: 0,
        };
      } catch (err) {
        const code = ConnectError.from(err).code;
        if (code !== Code.NotFound && code !== Code.InvalidArgument) throw err;
      }
      publicClients.set(clientId, client);
      return client;
    },
  };
}
