// Notices between services over the shared kv's pub/sub: fire and forget,
// so every reader also bounds its caches by a TTL.
import { RESUBSCRIBED } from "@gatehouse/kv";

/** The notice a listener hears after its subscription was lost and made again: every id may have changed. */
export { RESUBSCRIBED };

/** Whether a notice (an id, or RESUBSCRIBED) concerns what is kept under `id`. */
export const concerns = (notice: string, id: string) => notice === RESUBSCRIBED || notice === id;

/**
 * What changed in the registry: an application's settings or entry points
 * (message = its client id), the assertion catalog (message = the key), a
 * catalog of data fields or typologies (message = the kind), or an upstream
 * identity provider (message = its key).
 */
export type RegistryTopic = "application" | "assertions" | "catalog" | "identity-provider";

/**
 * Publishes a registry notice (the launcher wires it to the shared kv). The
 * registry awaits it before it answers, so the change's own request returns
 * after every replica's subscriber was sent the notice; it never rejects (a
 * lost notice is the TTL's case).
 */
export type RegistryNotify = (topic: RegistryTopic, id: string) => Promise<void>;

/** Subscribes to one topic of the registry's notices (every replica hears them); resolves to the unsubscribe. */
export type RegistryNotices = (topic: RegistryTopic, listener: (id: string) => void) => Promise<() => Promise<void>>;

/** The kv channel of each registry notice (`registry.changed.<topic>`, message = the id). */
export const registryChannel = (topic: RegistryTopic) => `registry.changed.${topic}`;

/**
 * A per-process cache of another service's answers, kept `ttlMs` or until a
 * notice drops it. An answer loaded while a drop happened may predate the
 * change: it is returned to its caller but not kept. Cleared whole past
 * `maxEntries` (a bound, not an eviction policy).
 */
export function noticeCache<K, V>(opts: { ttlMs: number; maxEntries?: number }) {
  const max = opts.maxEntries ?? 10_000;
  const entries = new Map<K, { value: V; until: number }>();
  let generation = 0;
  return {
    async get(key: K, load: (key: K) => Promise<V>): Promise<V> {
      const hit = entries.get(key);
      if (hit && hit.until > Date.now()) return hit.value;
      const startedAt = generation;
      const value = await load(key);
      if (startedAt === generation && opts.ttlMs > 0) {
        if (entries.size >= max) entries.clear();
        entries.set(key, { value, until: Date.now() + opts.ttlMs });
      }
      return value;
    },
    /** Drops the entries `which` names (all without it). */
    drop(which?: (key: K, value: V) => boolean) {
      generation++;
      if (!which) return entries.clear();
      for (const [k, hit] of entries) if (which(k, hit.value)) entries.delete(k);
    },
  };
}

export type NoticeCache<K, V> = ReturnType<typeof noticeCache<K, V>>;
