import { Redis } from "ioredis";
import { domainError } from "@gatehouse/errors";
import type { Kv } from "./index.ts";

export const DEFAULT_COMMAND_TIMEOUT_MS = 500;

/**
 * SUBSCRIBE and UNSUBSCRIBE run when a service is wired (a server's start, a
 * CLI command), never on a request's path: their new connection (connect,
 * ready check, SUBSCRIBE) gets this budget instead of a request's 500 ms,
 * which a process starved of CPU for half a second (a loaded machine, a long
 * synchronous start-up step) exceeded, failing the whole start or command.
 */
export const SUBSCRIBE_TIMEOUT_MS = 10_000;

/**
 * Redis connection options that fail fast and come back by themselves: a
 * command waits at most `commandTimeoutMs` (also while reconnecting), and a
 * lost connection is retried every second at most, so service resumes within
 * about a second of Redis answering again. BullMQ's connections use the same
 * reconnect pace.
 */
export function fastFailRedisOptions(commandTimeoutMs = DEFAULT_COMMAND_TIMEOUT_MS) {
  return {
    commandTimeout: commandTimeoutMs,
    connectTimeout: Math.max(1000, commandTimeoutMs * 2),
    maxRetriesPerRequest: 1,
    retryStrategy: (times: number) => Math.min(times * 100, 1000),
  };
}

/**
 * What every kv failure becomes: the request cannot be answered safely without
 * the shared state, so it fails closed with 503 and Retry-After (never a 401 for
 * a valid token, never a 500).
 */
export function storeUnavailable(cause: unknown): Error {
  const err = domainError("STORE_UNAVAILABLE", "shared state (Redis) is unreachable", { metadata: { retry_after: "1" } });
  err.cause = cause;
  return err;
}

const guard = <T>(p: Promise<T>): Promise<T> =>
  p.catch((err: unknown) => {
    throw storeUnavailable(err);
  });

// GET, compare and SET run in one script: Redis executes it atomically.
const COMPARE_AND_SET = `
local current = redis.call('GET', KEYS[1])
if current ~= ARGV[1] then return 0 end
if tonumber(ARGV[3]) > 0 then redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
else redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL') end
if KEYS[2] then
  if tonumber(ARGV[5]) > 0 then redis.call('SET', KEYS[2], ARGV[4], 'EX', ARGV[5])
  else redis.call('SET', KEYS[2], ARGV[4]) end
end
return 1`;

// DECR only while a key exists and is positive: a window that ended is not revived without its TTL.
const DECR_IF_LIVE = `
for _, key in ipairs(KEYS) do
  local current = tonumber(redis.call('GET', key) or '0')
  if current > 0 then redis.call('DECR', key) end
end
return 1`;

// Each key: INCR, start its window on the first count (EXPIRE NX), and its TTL; answered as count, ttl, count, ttl...
const INCR_MANY = `
local out = {}
for _, key in ipairs(KEYS) do
  out[#out + 1] = redis.call('INCR', key)
  redis.call('EXPIRE', key, ARGV[1], 'NX')
  out[#out + 1] = redis.call('TTL', key)
end
return out`;

/**
 * The scripts, sent once and then called by their SHA (EVALSHA; ioredis sends
 * the source again if Redis lost it): each call carries its keys, not its text.
 * Every script takes its key count first.
 */
interface Scripts {
  ghCompareAndSet(numberOfKeys: number, ...args: string[]): Promise<number>;
  ghDecrIfLive(numberOfKeys: number, ...keys: string[]): Promise<number>;
  ghIncrMany(numberOfKeys: number, ...args: string[]): Promise<number[]>;
}

function withScripts(r: Redis): Redis & Scripts {
  r.defineCommand("ghCompareAndSet", { lua: COMPARE_AND_SET });
  r.defineCommand("ghDecrIfLive", { lua: DECR_IF_LIVE });
  r.defineCommand("ghIncrMany", { lua: INCR_MANY });
  return r as Redis & Scripts;
}

export function redisKv(url: string, prefix: string, commandTimeoutMs: number): Kv {
  let subscriber: Redis | undefined;
  // Commands issued while (re)connecting wait in the offline queue, but never longer than the command timeout.
  const r = withScripts(new Redis(url, { keyPrefix: prefix, enableOfflineQueue: true, lazyConnect: false, ...fastFailRedisOptions(commandTimeoutMs) }));
  r.on("error", () => undefined);
  async function incrMany(keys: string[], ttl: number) {
    if (!keys.length) return [];
    const res = await guard(r.ghIncrMany(keys.length, ...keys, String(ttl)));
    return keys.map((_, i) => {
      const left = Number(res[i * 2 + 1] ?? ttl);
      return { count: Number(res[i * 2] ?? 0), ttlSeconds: left > 0 ? left : ttl };
    });
  }
  return {
    kind: "redis",
    redisUrl: url,
    get: (k) => guard(r.get(k)),
    getMany: (keys) => (keys.length ? guard(r.mget(keys)) : Promise.resolve([])),
    async set(k, v, ttl) {
      if (ttl) await guard(r.set(k, v, "EX", ttl));
      else await guard(r.set(k, v));
    },
    async setMany(entries) {
      for (let i = 0; i < entries.length; i += 1000) {
        const batch = r.pipeline();
        for (const e of entries.slice(i, i + 1000)) {
          if (e.ttlSeconds) batch.set(e.key, e.value, "EX", e.ttlSeconds);
          else batch.set(e.key, e.value);
        }
        const results = await guard(batch.exec());
        const failed = results?.find(([err]) => err);
        if (failed) throw storeUnavailable(failed[0]);
      }
    },
    async setIfAbsent(k, v, ttl) {
      return (await guard(r.set(k, v, "EX", ttl, "NX"))) === "OK";
    },
    take: (k) => guard(r.getdel(k)),
    async del(k) {
      await guard(r.del(k));
    },
    async compareAndSet(k, expected, v, ttl, also) {
      // ioredis applies keyPrefix to the script's KEYS.
      const set = also
        ? r.ghCompareAndSet(2, k, also.key, expected, v, String(ttl ?? 0), also.value, String(also.ttlSeconds ?? 0))
        : r.ghCompareAndSet(1, k, expected, v, String(ttl ?? 0));
      return (await guard(set)) === 1;
    },
    incr: async (k, ttl) => (await incrMany([k], ttl))[0]!,
    incrMany,
    async decr(k) {
      await guard(r.ghDecrIfLive(1, k));
    },
    async decrMany(keys) {
      if (keys.length) await guard(r.ghDecrIfLive(keys.length, ...keys));
    },
    async publish(channel, message) {
      // Channels are not keys: ioredis does not prefix them, so the prefix is added here.
      await guard(r.publish(`${prefix}${channel}`, message));
    },
    async subscribe(channel, onMessage) {
      const full = `${prefix}${channel}`;
      // A connection in subscriber mode serves nothing else: one per process, made on first use.
      const sub = (subscriber ??= r.duplicate({ commandTimeout: SUBSCRIBE_TIMEOUT_MS, connectTimeout: SUBSCRIBE_TIMEOUT_MS }));
      sub.on("error", () => undefined);
      const listener = (ch: string, msg: string) => ch === full && onMessage(msg);
      sub.on("message", listener);
      await guard(sub.subscribe(full));
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

