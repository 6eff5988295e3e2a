import type { Db } from "@gatehouse/db";
import type { WebhookEvent } from "@gatehouse/events";
import type { Logger } from "@gatehouse/logging";
import { relayStore } from "./store.ts";

/** Hands events to the registry, which stores each id once and queues its deliveries. */
export type PublishEvents = (events: WebhookEvent[]) => Promise<void>;

export interface EventRelay {
  /** Looks at the outbox now (a change that wrote an event has committed). */
  wake(): void;
  close(): Promise<void>;
}

const BATCH = 200;
const PRUNE_EVERY_MS = 10 * 60_000;
/**
 * A wake starts the next pass this much later, so the events committed
 * meanwhile go in the same pass: a pass costs ~7 SQL statements (read, the
 * registry's transaction, mark) whether it carries one event or many, and at
 * a login per few milliseconds one pass per event doubled a login's SQL.
 */
const GATHER_MS = 20;

/**
 * Moves the outbox to the registry: the oldest unrelayed rows, published, then
 * marked. A crash between the two publishes them again; the registry ignores
 * ids it has (at least once, never lost). While the registry is down the rows
 * wait and the relay retries every poll.
 */
export function startEventRelay(o: {
  db: Db;
  publish: PublishEvents;
  logger: Logger;
  pollMs?: number;
  gatherMs?: number;
}): EventRelay {
  const pollMs = o.pollMs ?? 500;
  const gatherMs = o.gatherMs ?? GATHER_MS;
  let closed = false;
  let woken = false;
  let sleeping: { timer: NodeJS.Timeout; resolve: () => void } | undefined;
  let gathering: NodeJS.Timeout | undefined;
  const stop = () => {
    if (!sleeping) return;
    clearTimeout(sleeping.timer);
    sleeping.resolve();
  };

  let pruned = Date.now();
  const loop = async () => {
    while (!closed) {
      woken = false;
      let full = false;
      try {
        if (Date.now() - pruned > PRUNE_EVERY_MS) {
          pruned = Date.now();
          await relayStore(o.db).prune();
        }
        const rows = await relayStore(o.db).unrelayed(BATCH);
        if (rows.length) {
          await o.publish(rows.map((r) => r.event));
          await relayStore(o.db).markRelayed(rows.map((r) => r.event.id));
        }
        full = rows.length === BATCH;
      } catch (err) {
        if (!closed) o.logger.warn({ err }, "events not relayed to the registry; retrying");
      }
      if (closed || full || woken) continue;
      await new Promise<void>((resolve) => {
        sleeping = { timer: setTimeout(resolve, pollMs), resolve };
      });
      sleeping = undefined;
    }
  };
  const running = loop();
  return {
    wake() {
      if (gathering) return;
      gathering = setTimeout(() => {
        gathering = undefined;
        woken = true;
        stop();
      }, gatherMs);
    },
    async close() {
      closed = true;
      clearTimeout(gathering);
      stop();
      await running;
    },
  };
}
