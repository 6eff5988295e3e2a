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
export function relyingPartyOrigins(
  registry: Client<typeof RedirectOriginsService> | undefined,
  ttlMs = FALLBACK_TTL_MS,
) {
  let known: Set<string> | undefined;
  let due = 0;
  // Bumped by every change notice: a load started before the notice may
  // carry the old list, so it is used but never cached as fresh.
  let generation = 0;
  let loading: { generation: number; promise: Promise<Set<string>> } | undefined;

  async function load(startedAt: number): Promise<Set<string>> {
    try {
      known = new Set(registry ? (await registry.listRedirectOrigins({})).origins : []);
      if (startedAt === generation) due = Date.now() + ttlMs;
    } catch (err) {
      if (startedAt === generation) due = Date.now() + RETRY_MS;
      if (!known) throw err;
    }
    return known;
  }

  /** One load at a time: a load for a newer generation waits for the stale one in flight, then reads again. */
  function startLoad(): Promise<Set<string>> {
    const before = loading?.promise.then(noop, noop) ?? Promise.resolve();
    const startedAt = generation;
    const entry = { generation: startedAt, promise: before.then(() => load(startedAt)) };
    loading = entry;
    entry.promise.then(noop, noop).finally(() => {
      if (loading === entry) loading = undefined;
    });
    return entry.promise;
  }

  return {
    async has(origin: string): Promise<boolean> {
      if (Date.now() >= due && loading?.generation !== generation) startLoad();
      return (loading ? await loading.promise : known!).has(origin);
    },
    invalidate() {
      generation++;
      due = 0;
    },
  };
}

const noop = () => undefined;

export type RelyingPartyOrigins = ReturnType<typeof relyingPartyOrigins>;
