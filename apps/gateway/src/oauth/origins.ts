import type { Client } from "@connectrpc/connect";
import type { RedirectOriginsService } from "@gatehouse/proto";

/**
 * The browser origin of a redirect URI (what a browser sends in Origin), or
 * undefined for URIs no web page is served from (native apps' custom schemes).
 */
export function browserOrigin(uri: string): string | undefined {
  try {
    const u = new URL(uri);
    return u.protocol === "https:" || u.protocol === "http:" ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The browser origins of an application's redirect URIs. */
export const originsOf = (redirectUris: readonly string[]): Set<string> =>
  new Set(redirectUris.map(browserOrigin).filter((o): o is string => o !== undefined));

const FALLBACK_TTL_MS = 60_000;
const RETRY_MS = 5_000;

/**
 * Every relying party's origin: the redirect-URI origins of all
 * applications, from the registry (RedirectOriginsService), held in memory
 * so a lookup is a Set test. It is read again after the registry announces
 * an application change (`invalidate`, from the kv notice that every gateway
 * replica hears) or after a minute in case a notice was lost. One load at a
 * time; an unknown origin never triggers a load (no amplification by
 * strangers); a failed load keeps the last known set and is retried after
 * 5 s (the very first one throws: nothing is known yet).
 */
export function relyingPartyOrigins(registry: Client<typeof RedirectOriginsService> | undefined, ttlMs = FALLBACK_TTL_MS) {
  let known: Set<string> | undefined;
  let due = 0;
  let loading: Promise<Set<string>> | undefined;

  async function load(): Promise<Set<string>> {
    try {
      known = new Set(registry ? (await registry.listRedirectOrigins({})).origins : []);
      due = Date.now() + ttlMs;
    } catch (err) {
      due = Date.now() + RETRY_MS;
      if (!known) throw err;
    }
    return known;
  }

  return {
    async has(origin: string): Promise<boolean> {
      if (Date.now() >= due) loading ??= load().finally(() => (loading = undefined));
      return (loading ? await loading : known!).has(origin);
    },
    invalidate() {
      due = 0;
    },
  };
}

export type RelyingPartyOrigins = ReturnType<typeof relyingPartyOrigins>;
