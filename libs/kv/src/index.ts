import { EventEmitter } from "node:events";
import { Redis } from "ioredis";

/**
 * Shared, expiring state: sessions, rate limits, revocation marks. Redis when
 * REDIS_URL is set (shared by every replica), else an in-process map (the
 * embedded default: one process, so in-process is shared state).
 */
export interface Kv {
  readonly kind: "redis" | "memory";
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  /** Sets only when absent; true when this call set it. */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  /** Reads and deletes in one step: at most one caller gets the value. */
  take(key: string): Promise<string | null>;
  del(key: string): Promise<void>;
  /**
   * Sets value only while the key holds exactly `expected`, in one step: of
   * many racing callers with the same `expected`, at most one succeeds. A
   * missing key never matches. With ttlSeconds the key gets that lifetime,
   * without it keeps its own. True when this call set it.
   */
  compareAndSet(key: string, expected: string, value: string, ttlSeconds?: number): Promise<boolean>;
  /** Increments a counter; the first increment starts its window of ttlSeconds. */
  incr(key: string, ttlSeconds: number): Promise<{ count: number; ttlSeconds: number }>;
  /** Takes one back from a live counter (never below zero, never creating it); it keeps its window. */
  decr(key: string): Promise<void>;
  /**
   * Tells every process listening on `channel` (Redis pub/sub; in memory:
   * this process). Fire and forget: a notice may be lost, so listeners keep
   * a fallback (a cache TTL).
   */
  publish(channel: string, message: string): Promise<void>;
  /** Calls `onMessage` for each notice on `channel`; the returned function stops listening. */
  subscribe(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** The Redis connection options for libraries that need their own (BullMQ); undefined in memory. */
  readonly redisUrl: string | undefined;
}

export function openKv(opts: { redisUrl?: string | undefined; prefix?: string }): Kv {
  const prefix = opts.prefix ?? "gh:";
  return opts.redisUrl ? redisKv(opts.redisUrl, prefix) : memoryKv();
}

// GET, compare and SET run in one script: Redis executes it atomically.
const COMPARE_AND_SET = `
local current = redis.call('GET', KEYS[1])
if current ~= ARGV[1] then return 0 end
if tonumber(ARGV[3]) > 0 then redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
else redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL') end
return 1`;

// DECR only while the key exists and is positive: a window that ended is not revived without its TTL.
const DECR_IF_LIVE = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if current > 0 then redis.call('DECR', KEYS[1]) end
return 1`;

function redisKv(url: string, prefix: string): Kv {
  let subscriber: Redis | undefined;
  // Fail fast instead of queueing commands while Redis is away: callers answer 503.
  const r = new Redis(url, { keyPrefix: prefix, enableOfflineQueue: true, maxRetriesPerRequest: 2, lazyConnect: false });
  r.on("error", () => undefined);
  return {
    kind: "redis",
    redisUrl: url,
    get: (k) => r.get(k),
    async set(k, v, ttl) {
      if (ttl) await r.set(k, v, "EX", ttl);
      else await r.set(k, v);
    },
    async setIfAbsent(k, v, ttl) {
      return (await r.set(k, v, "EX", ttl, "NX")) === "OK";
    },
    take: (k) => r.getdel(k),
    async del(k) {
      await r.del(k);
    },
    async compareAndSet(k, expected, v, ttl) {
      // ioredis applies keyPrefix to the script's KEYS.
      return (await r.eval(COMPARE_AND_SET, 1, k, expected, v, String(ttl ?? 0))) === 1;
    },
    async incr(k, ttl) {
      const res = await r.multi().incr(k).expire(k, ttl, "NX").ttl(k).exec();
      const count = Number(res?.[0]?.[1] ?? 0);
      const left = Number(res?.[2]?.[1] ?? ttl);
      return { count, ttlSeconds: left > 0 ? left : ttl };
    },
    async decr(k) {
      await r.eval(DECR_IF_LIVE, 1, k);
    },
    async publish(channel, message) {
      // Channels are not keys: ioredis does not prefix them, so the prefix is added here.
      await r.publish(`${prefix}${channel}`, message);
    },
    async subscribe(channel, onMessage) {
      const full = `${prefix}${channel}`;
      // A connection in subscriber mode serves nothing else: one per process, made on first use.
      const sub = (subscriber ??= r.duplicate());
      sub.on("error", () => undefined);
      const listener = (ch: string, msg: string) => ch === full && onMessage(msg);
      sub.on("message", listener);
      await sub.subscribe(full);
      return async () => {
        sub.off("message", listener);
        if (sub.listenerCount("message") === 0) await sub.unsubscribe(full).catch(() => undefined);
      };
    },
    async ping() {
      try {
        return (await r.ping()) === "PONG";
      } catch {
        return false;
      }
    },
    async close() {
      if (subscriber) await subscriber.quit().catch(() => subscriber?.disconnect());
      await r.quit().catch(() => r.disconnect());
    },
  };
}

function memoryKv(): Kv {
  const data = new Map<string, { v: string; exp: number }>();
  const bus = new EventEmitter().setMaxListeners(0);
  const now = () => Date.now();
  const live = (k: string) => {
    const e = data.get(k);
    if (!e) return undefined;
    if (e.exp && e.exp <= now()) {
      data.delete(k);
      return undefined;
    }
    return e;
  };
  // Expired entries are also swept so that the map does not grow without bound.
  const sweep = setInterval(() => {
    const t = now();
    for (const [k, e] of data) if (e.exp && e.exp <= t) data.delete(k);
  }, 30_000);
  sweep.unref();
  return {
    kind: "memory",
    redisUrl: undefined,
    async get(k) {
      return live(k)?.v ?? null;
    },
    async set(k, v, ttl) {
      data.set(k, { v, exp: ttl ? now() + ttl * 1000 : 0 });
    },
    async setIfAbsent(k, v, ttl) {
      if (live(k)) return false;
      data.set(k, { v, exp: now() + ttl * 1000 });
      return true;
    },
    async take(k) {
      const e = live(k);
      data.delete(k);
      return e?.v ?? null;
    },
    async del(k) {
      data.delete(k);
    },
    async compareAndSet(k, expected, v, ttl) {
      const e = live(k);
      if (!e || e.v !== expected) return false;
      data.set(k, { v, exp: ttl ? now() + ttl * 1000 : e.exp });
      return true;
    },
    async incr(k, ttl) {
      const e = live(k);
      const next = { v: String(Number(e?.v ?? 0) + 1), exp: e?.exp || now() + ttl * 1000 };
      data.set(k, next);
      return { count: Number(next.v), ttlSeconds: Math.max(1, Math.ceil((next.exp - now()) / 1000)) };
    },
    async decr(k) {
      const e = live(k);
      if (e && Number(e.v) > 0) e.v = String(Number(e.v) - 1);
    },
    async publish(channel, message) {
      bus.emit(channel, message);
    },
    async subscribe(channel, onMessage) {
      bus.on(channel, onMessage);
      return async () => void bus.off(channel, onMessage);
    },
    async ping() {
      return true;
    },
    async close() {
      clearInterval(sweep);
      data.clear();
      bus.removeAllListeners();
    },
  };
}
