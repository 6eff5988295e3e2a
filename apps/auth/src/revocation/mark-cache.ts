import type { Kv } from "@gatehouse/kv";

/** The kv channel on which every revocation names the mark it wrote (its key). */
export const REVOCATION_CHANNEL = "revocation.changed";

// Bounds the memory: past this many marks remembered, the cache starts over.
const MAX_ENTRIES = 50_000;
// Bounds what no notice covers (a revocation whose write failed after its row was stored, answered 503):
// the whole cache starts over this often.
const MAX_AGE_MS = 30_000;

/**
 * The revocation marks this process has read, kept until a revocation's
 * notice through the kv names one (contract section 16: caches are dropped by
 * a notice through Redis), so a token checked again costs no kv round trip.
 * Exactness rests on three rules: every writer of a mark publishes its key
 * after writing it (revocation-list.ts); a read whose answer may predate a
 * notice that arrived meanwhile is not kept (the generation); and while the
 * subscription is not live (not yet subscribed, or its connection closed,
 * when notices may have been missed) nothing is kept and everything kept is
 * dropped. Only answers of a store that holds every mark are kept (the
 * sentinel was there).
 */
export interface MarkCache {
  /** The values of `keys` if every one is known; undefined otherwise. */
  get(keys: readonly string[]): (string | null)[] | undefined;
  /** Call before the kv read whose answer goes to `put`. */
  generation(): number;
  /** Keeps the answer of a read started at `generation` unless a notice or a lost subscription came since. */
  put(generation: number, keys: readonly string[], values: readonly (string | null)[]): void;
  /** A mark was written (the writer's own process drops it at once, before its notice comes back). */
  drop(key: string): void;
}

const perKv = new WeakMap<Kv, MarkCache>();

/**
 * The process's cache of `kv`'s marks, fed by its notices (one per kv, so a
 * revocation drops the mark at once for every verifier of this process:
 * auth's own and the other services' in `npm start`). It keeps nothing until
 * the subscription is live.
 */
export function markCache(kv: Kv): MarkCache {
  let cache = perKv.get(kv);
  if (!cache) perKv.set(kv, (cache = newMarkCache(kv)));
  return cache;
}

function newMarkCache(kv: Kv): MarkCache {
  const marks = new Map<string, string | null>();
  let live = false;
  let generation = 0;
  let renewAt = 0;
  const dropAll = () => {
    generation++;
    marks.clear();
  };
  const drop = (key: string) => {
    generation++;
    marks.delete(key);
  };
  void kv.subscribe(REVOCATION_CHANNEL, drop, (isLive) => {
    dropAll();
    live = isLive;
  });
  return {
    get(keys) {
      if (!live) return undefined;
      const now = Date.now();
      if (now >= renewAt) {
        dropAll();
        renewAt = now + MAX_AGE_MS;
        return undefined;
      }
      const values: (string | null)[] = [];
      for (const k of keys) {
        const v = marks.get(k);
        if (v === undefined) return undefined;
        values.push(v);
      }
      return values;
    },
    generation: () => generation,
    put(asked, keys, values) {
      if (!live || asked !== generation) return;
      if (marks.size + keys.length > MAX_ENTRIES) marks.clear();
      keys.forEach((k, i) => marks.set(k, values[i] ?? null));
    },
    drop,
  };
}
