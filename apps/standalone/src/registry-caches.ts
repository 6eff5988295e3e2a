import { Code, ConnectError, type Client } from "@connectrpc/connect";
import type { Kv } from "@gatehouse/kv";
import type { AssertionsService, RegistryService } from "@gatehouse/proto";
import { registryChannel, type RegistryNotify } from "@gatehouse/registry";
import type { CatalogAssertion, ResolvedEntrypoint } from "@gatehouse/users";

// What the users service reads from the registry on every registration and
// login, cached per process. The registry publishes a notice on the shared
// kv when an application's settings or the assertion catalog change, and the
// caches drop what it names at once; the TTL is the fallback for a lost
// notice (pub/sub is fire and forget) and for start:services without Redis.

/** The registry's notices, published on the shared kv (every process's caches hear them). */
export const kvRegistryNotify =
  (kv: Kv, onError: (err: unknown) => void): RegistryNotify =>
  (topic, id) =>
    void kv.publish(registryChannel(topic), id).catch(onError);

/** Subscribes to the registry's notices of changed applications (the gateway's OAuth client caches and CORS origins). */
export const kvApplicationChanges = (kv: Kv) => (listener: (clientId: string) => void) => kv.subscribe(registryChannel("application"), listener);

/** Entry points with their application's settings, by entry point id; dropped when their application changes. */
export async function cachedEntrypoints(registry: Client<typeof RegistryService>, kv: Kv, ttlMs = 30_000) {
  const cache = new Map<string, { value: ResolvedEntrypoint | undefined; until: number }>();
  await kv.subscribe(registryChannel("application"), (clientId) => {
    for (const [id, hit] of cache) if (!hit.value || hit.value.clientId === clientId) cache.delete(id);
  });
  return async (id: string): Promise<ResolvedEntrypoint | undefined> => {
    const hit = cache.get(id);
    if (hit && hit.until > Date.now()) return hit.value;
    let value: ResolvedEntrypoint | undefined;
    try {
      const res = await registry.getEntrypoint({ entrypointId: id });
      value = { entrypoint: res.entrypoint!, clientId: res.clientId, whitelist: res.whitelist, defaultCallback: res.defaultCallback, mfa: res.mfa };
    } catch (err) {
      const code = ConnectError.from(err).code;
      if (code !== Code.NotFound && code !== Code.InvalidArgument) throw err;
    }
    if (cache.size >= 10_000) cache.clear();
    cache.set(id, { value, until: Date.now() + ttlMs });
    return value;
  };
}

/**
 * The legal-assertion catalog (latest versions) by typology set, kept for
 * `ttlMs` (ASSERTIONS_CACHE_TTL) or until the registry publishes a new one.
 */
export async function cachedAssertions(assertions: Client<typeof AssertionsService>, kv: Kv, ttlMs = 30_000) {
  const cache = new Map<string, { value: CatalogAssertion[]; until: number }>();
  await kv.subscribe(registryChannel("assertions"), () => cache.clear());
  return async (typologies: string[]): Promise<CatalogAssertion[]> => {
    // No typology, no assertion (an empty filter would list the whole catalog).
    if (!typologies.length) return [];
    const key = [...typologies].sort().join(",");
    const hit = cache.get(key);
    if (hit && hit.until > Date.now()) return hit.value;
    const res = await assertions.listAssertions({ typologies });
    const value = res.assertions.map((a) => ({
      key: a.key,
      version: a.version,
      displayName: { ...a.displayName },
      type: a.type,
      typology: a.typology,
      property: a.property,
      mandatory: a.mandatory,
    }));
    if (ttlMs > 0) {
      if (cache.size >= 1_000) cache.clear();
      cache.set(key, { value, until: Date.now() + ttlMs });
    }
    return value;
  };
}
