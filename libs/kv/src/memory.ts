import { EventEmitter } from "node:events";
import type { Kv, KvWrite } from "./kv.ts";

/** An expiring set's members and their ends (ms), ordered as Redis orders a sorted set: by end, then by member. */
type Members = Map<string, number>;
const ordered = (members: Iterable<[string, number]>) =>
  [...members].sort(([a, x], [b, y]) => x - y || (a < b ? -1 : a > b ? 1 : 0));

/** The embedded default: one process, so an in-process map is shared state. */
export function memoryKv(): Kv {
  const data = new Map<string, { v: string; exp: number; members?: Members }>();
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
  const incr = (k: string, ttl: number) => {
    const e = live(k);
    const next = { v: String(Number(e?.v ?? 0) + 1), exp: e?.exp || now() + ttl * 1000 };
    data.set(k, next);
    return { count: Number(next.v), ttlSeconds: Math.max(1, Math.ceil((next.exp - now()) / 1000)) };
  };
  const decr = (k: string) => {
    const e = live(k);
    if (e && Number(e.v) > 0) e.v = String(Number(e.v) - 1);
  };
  const addMember = (w: Extract<KvWrite, { op: "addMember" }>) => {
    const members: Members = new Map([...(live(w.key)?.members ?? [])].filter(([, end]) => end > w.now));
    const kept = ordered(members.set(w.member, w.until)).slice(-w.keep);
    data.set(w.key, { v: "", exp: now() + Math.max(1, kept.at(-1)![1] - w.now), members: new Map(kept) });
  };
  const write = (w: KvWrite) => {
    if (w.op === "set") data.set(w.key, { v: w.value, exp: w.ttlSeconds ? now() + w.ttlSeconds * 1000 : 0 });
    else if (w.op === "del") data.delete(w.key);
    else if (w.op === "decr") decr(w.key);
    else addMember(w);
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
    async getMany(keys) {
      return keys.map((k) => live(k)?.v ?? null);
    },
    async set(k, v, ttl) {
      data.set(k, { v, exp: ttl ? now() + ttl * 1000 : 0 });
    },
    async setMany(entries) {
      for (const e of entries) data.set(e.key, { v: e.value, exp: e.ttlSeconds ? now() + e.ttlSeconds * 1000 : 0 });
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
    async compareAndSet(k, expected, v, ttl, also) {
      const e = live(k);
      if (!e || e.v !== expected) return false;
      data.set(k, { v, exp: ttl ? now() + ttl * 1000 : e.exp });
      if (also) data.set(also.key, { v: also.value, exp: also.ttlSeconds ? now() + also.ttlSeconds * 1000 : 0 });
      return true;
    },
    incr: async (k, ttl) => incr(k, ttl),
    incrMany: async (keys, ttl) => keys.map((k) => incr(k, ttl)),
    decr: async (k) => decr(k),
    async batch(writes, reads = []) {
      writes.forEach(write);
      return reads.map((k) => live(k)?.v ?? null);
    },
    async members(k, at) {
      return ordered(live(k)?.members ?? [])
        .filter(([, end]) => end > at)
        .map(([m]) => m);
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
