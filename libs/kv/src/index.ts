import { memoryKv } from "./memory.ts";
import type { Kv } from "./kv.ts";
import { DEFAULT_COMMAND_TIMEOUT_MS } from "./redis-connection.ts";
import { redisKv } from "./redis.ts";
import { tracedKv } from "./traced.ts";

export type { Kv, KvEntry, KvWrite } from "./kv.ts";
export { RESUBSCRIBED } from "./kv.ts";

export interface KvOptions {
  redisUrl?: string | undefined;
  prefix?: string;
  /** How long one Redis command may take before it fails (default 500 ms). */
  commandTimeoutMs?: number;
}

export function openKv(opts: KvOptions): Kv {
  const prefix = opts.prefix ?? "gh:";
  return opts.redisUrl
    ? tracedKv(redisKv(opts.redisUrl, prefix, opts.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS))
    : memoryKv();
}

export { DEFAULT_COMMAND_TIMEOUT_MS, fastFailRedisOptions, storeUnavailable } from "./redis-connection.ts";
