import type { Redis } from "ioredis";
import type { KvWrite } from "./kv.ts";

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
export interface Scripts {
  ghCompareAndSet(numberOfKeys: number, ...args: string[]): Promise<number>;
  ghBatch(numberOfKeys: number, ...args: string[]): Promise<(string | null)[]>;
  ghIncrMany(numberOfKeys: number, ...args: string[]): Promise<number[]>;
}

export function withScripts(r: Redis): Redis & Scripts {
  r.defineCommand("ghCompareAndSet", { lua: COMPARE_AND_SET });
  r.defineCommand("ghBatch", { lua: BATCH });
  r.defineCommand("ghIncrMany", { lua: INCR_MANY });
  return r as Redis & Scripts;
}

/** A write's op and arguments, as BATCH reads them. */
export function writeArgs(w: KvWrite): string[] {
  if (w.op === "set") return [w.op, w.value, String(w.ttlSeconds ?? 0)];
  if (w.op === "addMember") return [w.op, w.member, String(w.until), String(w.now), String(w.keep)];
  return [w.op];
}
