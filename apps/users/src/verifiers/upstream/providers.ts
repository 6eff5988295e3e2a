import { providerConfiguration, UpstreamUnavailable, type OutboundPolicy, type ProviderSettings } from "@gatehouse/idp";
import { domainError } from "@gatehouse/errors";
import type { Configuration } from "@gatehouse/idp";
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

/** The registry's providers with their secrets opened, their configurations kept a minute. */
export function upstreamProviders(clients: UpstreamClients, policy: OutboundPolicy): Providers {
  const cache = new Map<string, { value: ReadyProvider; until: number }>();
  return async (key) => {
    const hit = cache.get(key);
    if (hit && hit.until > Date.now()) return hit.value;
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
    const value = { settings: found.settings, config };
    if (cache.size > 100) cache.clear();
    cache.set(key, { value, until: Date.now() + TTL_MS });
    return value;
  };
}
