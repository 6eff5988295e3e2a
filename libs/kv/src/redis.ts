import { EventEmitter } from "node:events";
import { Redis } from "ioredis";
import { RESUBSCRIBED, type Kv, type KvWrite } from "./kv.ts";
import { fastFailRedisOptions, storeUnavailable, SUBSCRIBE_TIMEOUT_MS } from "./redis-connection.ts";
import { withScripts, writeArgs } from "./redis-scripts.ts";

/** Every Redis failure fails closed: STORE_UNAVAILABLE. */
const guard = <T>(p: Promise<T>): Promise<T> =>
  p.catch((err: unknown) => {
    throw storeUnavailable(err);
  });

export function redisKv(url: string, prefix: string, commandTimeoutMs: number): Kv {
  let subscriber: Redis | undefined;
  // This process's listeners by full channel name, told at once by publish.
  const here = new EventEmitter().setMaxListeners(0);
  // Commands issued while (re)connecting wait in the offline queue, but never longer than the command timeout.
  const r = withScripts(
    new Redis(url, {
      keyPrefix: prefix,
      enableOfflineQueue: true,
      lazyConnect: false,
      // Commands issued in the same turn of the event loop (concurrent requests) leave in one write:
      // the same commands in the same order, fewer socket writes (the profile's largest native item).
      enableAutoPipelining: true,
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
      const full = `${prefix}${channel}`;
      // This process first: its next request must not read what the notice drops (the echo comes back later).
      here.emit(full, message);
      await guard(r.publish(full, message));
    },
    async subscribe(channel, onMessage) {
      const full = `${prefix}${channel}`;
      // A connection in subscriber mode serves nothing else: one per process, made on first use.
      const sub = (subscriber ??= resyncing(
        r.duplicate({
          enableAutoPipelining: false,
          commandTimeout: SUBSCRIBE_TIMEOUT_MS,
          connectTimeout: SUBSCRIBE_TIMEOUT_MS,
        }),
      ));
      sub.on("error", () => undefined);
      const listener = (ch: string, msg: string) => ch === full && onMessage(msg);
      sub.on("message", listener);
      const resync = () => onMessage(RESUBSCRIBED);
      sub.on(RESYNC_EVENT, resync);
      here.on(full, onMessage);
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
        sub.off(RESYNC_EVENT, resync);
        here.off(full, onMessage);
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

const RESYNC_EVENT = "gatehouse:resync";

/**
 * A subscriber connection that tells its listeners when it is ready again
 * after a loss (ioredis subscribes again by itself; the notices of the gap
 * are gone): each then hears RESUBSCRIBED.
 */
function resyncing(sub: Redis): Redis {
  let lost = false;
  sub.on("close", () => (lost = true));
  sub.on("ready", () => {
    if (lost) sub.emit(RESYNC_EVENT);
    lost = false;
  });
  return sub;
}
