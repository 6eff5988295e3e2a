import { Code, ConnectError, type Client } from "@connectrpc/connect";
import type { RegistryService } from "@gatehouse/proto";

/** What the hosted login needs to know about an application. */
export interface HostedApp {
  clientId: string;
  displayName: string;
  redirectUris: string[];
  entrypoints: { id: string; key: string; displayName: string }[];
}

const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

/**
 * Applications from the registry (GetApplication), each kept 30 s: a
 * redirect URI removed in the registry stops working here within that time.
 * undefined for an unknown client (operator clients are not applications).
 */
export function hostedApps(registry: Client<typeof RegistryService>) {
  const cache = new Map<string, { value: HostedApp | undefined; until: number }>();
  return async (clientId: string): Promise<HostedApp | undefined> => {
    const hit = cache.get(clientId);
    if (hit && hit.until > Date.now()) return hit.value;
    let value: HostedApp | undefined;
    try {
      const app = (await registry.getApplication({ clientId })).application;
      value = app && {
        clientId: app.id,
        displayName: app.displayName,
        redirectUris: [...app.redirectUris],
        entrypoints: app.entrypoints.map((e) => ({ id: e.id, key: e.key, displayName: e.displayName })),
      };
    } catch (err) {
      const code = ConnectError.from(err).code;
      if (code !== Code.NotFound && code !== Code.InvalidArgument) throw err;
    }
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(clientId, { value, until: Date.now() + TTL_MS });
    return value;
  };
}

export type HostedApps = ReturnType<typeof hostedApps>;
