import type { Config } from "@gatehouse/config";
import { DEFAULT_RETRY_SCHEDULE } from "@gatehouse/events";

// Apart from ./wiring.ts, which the gateway process loads too: only the
// registry delivers webhooks, so only it loads @gatehouse/events.

/** The registry's webhook settings of a server: the delivery worker runs, on the configured retry schedule. */
export function webhookSettings(config: Config) {
  return {
    deliver: true,
    allowPrivate: config.webhooks.allowPrivate,
    schedule: { ...DEFAULT_RETRY_SCHEDULE, baseMs: config.webhooks.retryBaseMs },
  };
}
