import { Redis } from "ioredis";
import { domainError } from "@gatehouse/errors";
import type { Kv, KvWrite } from "./index.ts";

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
  const err = domainError("STORE_UNAVAILABLE", "shared state (Redis) is unreachable", {
    metadata: { retry_after: "1" },
  });
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

// Kv.batch: KEYS are each write's key, then the keys to read; ARGV[1] is the
// number of writes, then each write's op and its arguments. decr: only while
// the key exists and is positive (a window that ended is not revived without
// its TTL). addMember: a sorted set scored by each member's end (ms).
const BATCH = `
local writes, a = tonumber(ARGV[1]), 2
for i = 1, writes do
  local key, op = KEYS[i], ARGV[a]
  if op == 'set' then
    if tonumber(ARGV[a + 2]) > 0 then redis.call('SET', key, ARGV[a + 1], 'EX', ARGV[a + 2])
    else redis.call('SET', key, ARGV[a + 1]) end
    a = a + 3
  elseif op == 'del' then
    redis.call('DEL', key)
    a = a + 1
  elseif op == 'decr' then
    if tonumber(redis.call('GET', key) or '0') > 0 then redis.call('DECR', key) end
    a = a + 1
  elseif op == 'addMember' then
    local now = ARGV[a + 3]
    redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
    redis.call('ZADD', key, ARGV[a + 2], ARGV[a + 1])
    local extra = redis.call('ZCARD', key) - tonumber(ARGV[a + 4])
    if extra > 0 then redis.call('ZREMRANGEBYRANK', key, 0, extra - 1) end
    local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')[2]
    redis.call('PEXPIRE', key, math.max(1, math.ceil(tonumber(last) - tonumber(now))))
    a = a + 5
  else
    return redis.error_reply('unknown write ' .. tostring(op))
  end
end
local out = {}
for i = writes + 1, #KEYS do out[#out + 1] = redis.call('GET', KEYS[i]) end
return out`;

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
  ghBatch(numberOfKeys: number, ...args: string[]): Promise<(string | null)[]>;
  ghIncrMany(numberOfKeys: number, ...args: string[]): Promise<number[]>;
}

function withScripts(r: Redis): Redis & Scripts {
  r.defineCommand("ghCompareAndSet", { lua: COMPARE_AND_SET });
  r.defineCommand("ghBatch", { lua: BATCH });
  r.defineCommand("ghIncrMany", { lua: INCR_MANY });
  return r as Redis & Scripts;
}

/** A write's op and arguments, as BATCH reads them. */
function writeArgs(w: KvWrite): string[] {
  if (w.op === "set") return [w.op, w.value, String(w.ttlSeconds ?? 0)];
  if (w.op === "addMember") return [w.op, w.member, String(w.until), String(w.now), String(w.keep)];
  return [w.op];
}

export function redisKv(url: string, prefix: string, commandTimeoutMs: number): Kv {
  let subscriber: Redis | undefined;
  // Commands issued while (re)connecting wait in the offline queue, but never longer than the command timeout.
  const r = withScripts(
    new Redis(url, {
      keyPrefix: prefix,
      enableOfflineQueue: true,
      lazyConnect: false,
      ...fastFailRedisOptions(commandTimeoutMs),
    }),
  );
  r.on("error", () => undefined);
  async function incrMany(keys: string[], ttl: number) {
    if (!keys.length) return [];
    const res = await guard(r.ghIncrMany(keys.length, ...keys, String(ttl)));
    return keys.map((_, i) => {
      const left = Number(res[i * 2 + 1] ?? ttl);
      return { count: Number(res[i * 2] ?? 0), ttlSeconds: left > 0 ? left : ttl };
    });
  }
  async function batch(writes: KvWrite[], reads: string[] = []) {
    if (!writes.length && !reads.length) return [];
    return guard(
      r.ghBatch(
        writes.length + reads.length,
        ...writes.map((w) => w.key),
        ...reads,
        String(writes.length),
        ...writes.flatMap(writeArgs),
      ),
    );
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
      await batch([{ op: "decr", key: k }]);
    },
    batch,
    members: (k, now) => guard(r.zrangebyscore(k, `(${now}`, "+inf")),
    async publish(channel, message) {
      // Channels are not keys: ioredis does not prefix them, so the prefix is added here.
      await guard(r.publish(`${prefix}${channel}`, message));
    },
    async subscribe(channel, onMessage) {
      const full = `${prefix}${channel}`;
      // A connection in subscriber mode serves nothing else: one per process, made on first use.
      const sub = (subscriber ??= r.duplicate({
        commandTimeout: SUBSCRIBE_TIMEOUT_MS,
        connectTimeout: SUBSCRIBE_TIMEOUT_MS,
      }));
      sub.on("error", () => undefined);
      const listener = (ch: string, msg: string) => ch === full && onMessage(msg);
      sub.on("message", listener);
      // Redis unreachable at start: the process starts anyway and answers 503 where it needs Redis
      // (contract section 10); the subscription is retried every second until Redis answers (ioredis
      // then keeps it across reconnects). Notices lost meanwhile are bounded by the caches' reloads.
      let retry: NodeJS.Timeout | undefined;
      let stopped = false;
      const attempt = (): Promise<void> =>
        sub.subscribe(full).then(
          () => undefined,
          () => {
            if (!stopped) retry = setTimeout(() => void attempt(), 1000).unref();
          },
        );
      await attempt();
      return async () => {
        stopped = true;
        clearTimeout(retry);
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
