import { domainError } from "@gatehouse/errors";

// How the Redis driver connects, and what any failure of the shared state becomes (STORE_UNAVAILABLE).

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
