import { providerConfiguration, UpstreamUnavailable, type OutboundPolicy, type ProviderSettings } from "@gatehouse/idp";
import { domainError } from "@gatehouse/errors";
import type { Configuration } from "@gatehouse/idp";
import type { Kv } from "@gatehouse/kv";
import { concerns, noticeCache, registryChannel } from "@gatehouse/rpc";
import type { UpstreamClients } from "../../ports.ts";

/** A provider ready for a round trip: its settings and its openid-client configuration (discovery done). */
export interface ReadyProvider {
  settings: ProviderSettings;
  config: Configuration;
}

export type Providers = (key: string) => Promise<ReadyProvider>;

// Discovery is read once a minute per provider, and so is its JWKS (the
// configuration holds it): a rotated upstream key is known within a minute,
// and openid-client refetches the JWKS at once for an ID token whose kid it lacks.
const TTL_MS = 60_000;

/**
 * The registry's providers with their secrets opened, their configurations
 * kept a minute or until the registry's notice of a change to that provider
 * reaches this replica (section 16).
 */
export function upstreamProviders(clients: UpstreamClients, policy: OutboundPolicy, kv?: Kv): Providers {
  const cache = noticeCache<string, ReadyProvider>({ ttlMs: TTL_MS, maxEntries: 100 });
  const load = async (key: string): Promise<ReadyProvider> => {
    const found = await clients(key);
    if (!found) throw domainError("IDENTITY_PROVIDER_NOT_FOUND", undefined, { metadata: { key } });
    let config: Configuration;
    try {
      config = await providerConfiguration(found.settings, found.secret, policy);
    } catch (e) {
      if (e instanceof UpstreamUnavailable)
        throw domainError("UPSTREAM_UNAVAILABLE", undefined, { metadata: { provider: key } });
      throw e;
    }
    return { settings: found.settings, config };
  };
  // Subscribed on first use: nothing is cached before it.
  let listening: Promise<unknown> | undefined;
  return async (key) => {
    listening ??= kv
      ?.subscribe(registryChannel("identity-provider"), (changed) => cache.drop((k) => concerns(changed, k)))
      .catch(() => undefined);
    await listening;
    return cache.get(key, load);
  };
}
