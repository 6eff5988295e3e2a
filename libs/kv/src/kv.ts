// The shape both drivers implement (redis.ts, memory.ts); index.ts picks one.

/** A key to set, its value and (optionally) its lifetime. */
export interface KvEntry {
  key: string;
  value: string;
  ttlSeconds?: number;
}

/**
 * One write of `Kv.batch`. `addMember` puts `member` in an expiring set with
 * its own end (`until`, ms): members whose end is at or before `now` (ms)
 * leave first, then the soonest-ending beyond `keep`; the set's key lives
 * until its last member's end. A member added again gets its new end.
 */
export type KvWrite =
  | ({ op: "set" } & KvEntry)
  | { op: "del"; key: string }
  | { op: "decr"; key: string }
  | { op: "addMember"; key: string; member: string; until: number; now: number; keep: number };

/**
 * Shared, expiring state: sessions, rate limits, revocation marks. Redis when
 * REDIS_URL is set (shared by every replica), else an in-process map (the
 * embedded default: one process, so in-process is shared state).
 */
export interface Kv {
  readonly kind: "redis" | "memory";
  get(key: string): Promise<string | null>;
  /** Several keys in one round trip (MGET), in the order asked. */
  getMany(keys: string[]): Promise<(string | null)[]>;
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  /** Sets many keys, pipelined (one round trip per batch). */
  setMany(entries: KvEntry[]): Promise<void>;
  /** Sets only when absent; true when this call set it. */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  /** Reads and deletes in one step: at most one caller gets the value. */
  take(key: string): Promise<string | null>;
  del(key: string): Promise<void>;
  /**
   * Sets value only while the key holds exactly `expected`, in one step: of
   * many racing callers with the same `expected`, at most one succeeds. A
   * missing key never matches. With ttlSeconds the key gets that lifetime,
   * without it keeps its own. `alsoSet` is written in the same step, and only
   * when the key matched (a refresh rotation's session and its new token).
   * True when this call set it.
   */
  compareAndSet(key: string, expected: string, value: string, ttlSeconds?: number, alsoSet?: KvEntry): Promise<boolean>;
  /** Increments a counter; the first increment starts its window of ttlSeconds. */
  incr(key: string, ttlSeconds: number): Promise<{ count: number; ttlSeconds: number }>;
  /** Several counters (incr each) in one round trip, in the order asked. */
  incrMany(keys: string[], ttlSeconds: number): Promise<{ count: number; ttlSeconds: number }[]>;
  /** Takes one back from a live counter (never below zero, never creating it); it keeps its window. */
  decr(key: string): Promise<void>;
  /**
   * Applies `writes` in order (`decr` as `decr` does), then reads `reads`
   * (their values, in the order asked), in one step no other call interleaves
   * with and one round trip (Redis: one script).
   */
  batch(writes: KvWrite[], reads?: string[]): Promise<(string | null)[]>;
  /** The members of an expiring set (`addMember`) whose end is after `now` (ms), soonest-ending first. */
  members(key: string, now: number): Promise<string[]>;
  /**
   * Tells every process listening on `channel` (Redis pub/sub; in memory:
   * this process). This process's own listeners hear it before it resolves
   * (with Redis a second time when the notice comes back: listeners must be
   * idempotent, as a cache drop is). Fire and forget: a notice may be lost,
   * so listeners keep a fallback (a cache TTL).
   */
  publish(channel: string, message: string): Promise<void>;
  /**
   * Calls `onMessage` for each notice on `channel`; the returned function
   * stops listening. When the connection that listens was lost and is made
   * again (Redis restarted, a network cut), `onMessage` gets `RESUBSCRIBED`:
   * notices may have been missed meanwhile, so a listener drops everything.
   */
  subscribe(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** The Redis connection options for libraries that need their own (BullMQ); undefined in memory. */
  readonly redisUrl: string | undefined;
}

/** The message every listener hears after its subscription was lost and made again: anything may have changed. */
export const RESUBSCRIBED = "*";
