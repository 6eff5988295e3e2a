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
  concurrency?: number;
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
 * replicas through leases). It claims due rows, attempts each, records the
 * outcome, and goes on while work is due; otherwise it sleeps until woken or
 * the poll interval passes.
 */
export function startWebhookWorker(o: WebhookWorkerOptions): WebhookWorker {
  const deps = { secrets: webhookSecrets(o.keys), post: o.post, schedule: o.schedule ?? DEFAULT_RETRY_SCHEDULE };
  const concurrency = o.concurrency ?? 16;
  const pollMs = o.pollMs ?? 1000;
  let closed = false;
  let sleeping: { timer: NodeJS.Timeout; resolve: () => void } | undefined;
  let woken = false;

  const one = async (d: ClaimedDelivery) => {
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

  let pruned = Date.now();
  const loop = async () => {
    while (!closed) {
      woken = false;
      let claimed: ClaimedDelivery[] = [];
      try {
        if (Date.now() - pruned > PRUNE_EVERY_MS) {
          pruned = Date.now();
          await deliveryStore(o.db).prune(KEEP_DAYS);
        }
        claimed = await deliveryStore(o.db).claim(concurrency, LEASE_MS);
        await Promise.all(
          claimed.map((d) => one(d).catch((err: unknown) => o.logger.error({ err }, "webhook delivery not recorded"))),
        );
      } catch (err) {
        if (!closed) o.logger.error({ err }, "webhook deliveries not claimed");
      }
      if (closed || claimed.length === concurrency || woken) continue;
      await new Promise<void>((resolve) => {
        sleeping = { timer: setTimeout(resolve, pollMs), resolve };
      });
      sleeping = undefined;
    }
  };
  const running = loop();

  return {
    wake() {
      woken = true;
      if (sleeping) {
        clearTimeout(sleeping.timer);
        sleeping.resolve();
      }
    },
    async close() {
      closed = true;
      if (sleeping) {
        clearTimeout(sleeping.timer);
        sleeping.resolve();
      }
      await running;
    },
  };
}
