import { Code, ConnectError, type Client } from "@connectrpc/connect";
import type { RegistryService } from "@gatehouse/proto";
import { RESUBSCRIBED } from "@gatehouse/rpc";

/** What the hosted login, logout and CORS need to know about an application. */
export interface HostedApp {
  clientId: string;
  displayName: string;
  redirectUris: string[];
  entrypoints: { id: string; key: string; displayName: string }[];
}

/**
 * An OAuth client as a relying party names itself: an application
 * (confidential, its own client_id) or one of its entry points acting as a
 * public client (contract section 9: client_id = the entry point id,
 * token_endpoint_auth_method none, the application's redirect URIs).
 */
export interface OAuthClient {
  clientId: string;
  app: HostedApp;
  /** Set for a public client: the entry point it is. */
  entrypointId?: string;
}

const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

/** A map whose entries live `TTL_MS` (cleared whole when it grows past MAX_ENTRIES). */
function ttlMap<V>() {
  const entries = new Map<string, { value: V; until: number }>();
  return {
    entries,
    get: (key: string) => {
      const hit = entries.get(key);
      return hit && hit.until > Date.now() ? hit : undefined;
    },
    set(key: string, value: V) {
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(key, { value, until: Date.now() + TTL_MS });
    },
  };
}

const notFound = (err: unknown) => {
  const code = ConnectError.from(err).code;
  return code === Code.NotFound || code === Code.InvalidArgument;
};

/**
 * Applications and public clients from the registry (GetApplication,
 * GetEntrypoint), each kept 30 s or until the registry announces a change
 * of that application (`forget`, from its kv notice): a redirect URI removed
 * in the registry stops working here at once, or within 30 s if the notice
 * is lost. Operator clients are not applications (undefined).
 */
export function oauthClients(registry: Client<typeof RegistryService>) {
  const apps = ttlMap<HostedApp | undefined>();
  // Entry point id -> its application's client_id (undefined: no such entry point).
  const owners = ttlMap<string | undefined>();

  async function app(clientId: string): Promise<HostedApp | undefined> {
    const hit = apps.get(clientId);
    if (hit) return hit.value;
    let value: HostedApp | undefined;
    try {
      const a = (await registry.getApplication({ clientId })).application;
      value = a && {
        clientId: a.id,
        displayName: a.displayName,
        redirectUris: [...a.redirectUris],
        entrypoints: a.entrypoints.map((e) => ({ id: e.id, key: e.key, displayName: e.displayName })),
      };
    } catch (err) {
      if (!notFound(err)) throw err;
    }
    apps.set(clientId, value);
    return value;
  }

  async function ownerOf(entrypointId: string): Promise<string | undefined> {
    const hit = owners.get(entrypointId);
    if (hit) return hit.value;
    let owner: string | undefined;
    try {
      owner = (await registry.getEntrypoint({ entrypointId })).clientId;
    } catch (err) {
      if (!notFound(err)) throw err;
    }
    owners.set(entrypointId, owner);
    return owner;
  }

  return {
    app,
    /** The application named by client_id, else the public client of the entry point it names. */
    async client(clientId: string): Promise<OAuthClient | undefined> {
      if (!clientId || clientId.length > 256) return undefined;
      const own = await app(clientId);
      if (own) return { clientId, app: own };
      const owner = await ownerOf(clientId);
      const parent = owner ? await app(owner) : undefined;
      return parent && { clientId, app: parent, entrypointId: clientId };
    },
    /** The registry changed this application (created, settings, redirect URIs): read it again next time. */
    forget(clientId: string) {
      if (clientId === RESUBSCRIBED) return void (apps.entries.clear(), owners.entries.clear());
      apps.entries.delete(clientId);
      for (const [id, e] of owners.entries)
        if (e.value === clientId || (e.value === undefined && id.startsWith(`${clientId}_`))) owners.entries.delete(id);
    },
  };
}

export type OAuthClients = ReturnType<typeof oauthClients>;
