import type { Db } from "@gatehouse/db";
import { DEFAULT_RETRY_SCHEDULE, type PostOptions, type RetrySchedule } from "@gatehouse/events";
import type { Logger } from "@gatehouse/logging";
import type { KeyRing } from "@gatehouse/secrets";
import { attemptDelivery } from "./attempt.ts";
import { deliveryStore, type ClaimedDelivery } from "./deliveries.ts";
import { webhookSecrets } from "./secrets.ts";
import { webhookStore } from "./store.ts";

export interface WebhookWorkerOptions {
  db: Db;
  keys: KeyRing;
  logger: Logger;
  post: PostOptions;
  schedule?: RetrySchedule;
  /** How often an idle worker looks for due deliveries (a new event wakes it at once in its own process). */
  pollMs?: number;
  /** Attempts in flight in this process. */
  concurrency?: number;
  /** Attempts in flight to one endpoint: a slow one cannot take every slot. */
  perEndpoint?: number;
}

export interface WebhookWorker {
  /** Looks for due deliveries now (an event was just stored). */
  wake(): void;
  close(): Promise<void>;
}

// Longer than one attempt can take (10 s answer timeout + DNS): a live
// worker's lease never lapses; a killed one's does, and the row is due again.
const LEASE_MS = 30_000;
/** The delivery log and the events are kept this long (docs/operations.md). */
const KEEP_DAYS = 30;
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * The delivery worker: the deliveries table is its queue (durable, shared by
 * replicas through leases). It keeps up to `concurrency` attempts in flight,
 * at most `perEndpoint` to one endpoint, claiming due rows as slots free up;
 * each outcome is recorded as it comes. With nothing due it sleeps until
 * woken, a slot frees, or the poll interval passes.
 */
export function startWebhookWorker(o: WebhookWorkerOptions): WebhookWorker {
  const deps = { secrets: webhookSecrets(o.keys), post: o.post, schedule: o.schedule ?? DEFAULT_RETRY_SCHEDULE };
  const concurrency = o.concurrency ?? 32;
  const perEndpoint = o.perEndpoint ?? 8;
  const pollMs = o.pollMs ?? 1000;
  const active = new Set<Promise<void>>();
  const perHook = new Map<string, number>();
  let closed = false;
  let sleeping: { timer: NodeJS.Timeout; resolve: () => void } | undefined;
  let woken = false;
  const wakeUp = () => {
    woken = true;
    if (!sleeping) return;
    clearTimeout(sleeping.timer);
    sleeping.resolve();
  };

  const attempt = async (d: ClaimedDelivery) => {
    const outcome = await attemptDelivery(deps, d).catch(
      (err: unknown) => ({ kind: "retry", code: null, error: String(err), at: Date.now() + 60_000 }) as const,
    );
    await o.db.tx(async (q) => {
      await deliveryStore(q).record(d.id, outcome);
      if ("gone" in outcome && outcome.gone) await webhookStore(q).disableGone(d.webhookId);
    });
    if (outcome.kind === "failed")
      o.logger.warn(
        { delivery: d.id, webhook: d.webhookId, event: d.eventId, error: outcome.error },
        "webhook delivery failed for good",
      );
  };

  const start = (d: ClaimedDelivery) => {
    perHook.set(d.webhookId, (perHook.get(d.webhookId) ?? 0) + 1);
    const p: Promise<void> = attempt(d)
      .catch((err: unknown) => o.logger.error({ err, delivery: d.id }, "webhook delivery not recorded"))
      .finally(() => {
        active.delete(p);
        const n = (perHook.get(d.webhookId) ?? 1) - 1;
        if (n > 0) perHook.set(d.webhookId, n);
        else perHook.delete(d.webhookId);
        wakeUp();
      });
    active.add(p);
  };

  let pruned = Date.now();
  const loop = async () => {
    while (!closed) {
      woken = false;
      let claimed = 0;
      try {
        if (Date.now() - pruned > PRUNE_EVERY_MS) {
          pruned = Date.now();
          await deliveryStore(o.db).prune(KEEP_DAYS);
        }
        const free = concurrency - active.size;
        if (free > 0) {
          const busy = [...perHook].filter(([, n]) => n >= perEndpoint).map(([id]) => id);
          const rows = await deliveryStore(o.db).claim(free, LEASE_MS, busy);
          for (const d of rows) start(d);
          claimed = rows.length;
        }
      } catch (err) {
        if (!closed) o.logger.error({ err }, "webhook deliveries not claimed");
      }
      if (closed || woken || (claimed > 0 && active.size < concurrency)) continue;
      await new Promise<void>((resolve) => {
        sleeping = { timer: setTimeout(resolve, pollMs), resolve };
      });
      sleeping = undefined;
    }
  };
  const running = loop();

  return {
    wake: wakeUp,
    async close() {
      closed = true;
      wakeUp();
      await running;
      await Promise.allSettled([...active]);
    },
  };
}
