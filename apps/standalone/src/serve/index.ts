import type { Config } from "@gatehouse/config";
import type { Logger } from "@gatehouse/logging";
import { createDrain, type Drain } from "@gatehouse/rpc";
import { releaseIdleMemory } from "../memory.ts";
import { onShutdown } from "../shutdown.ts";
import { startTraces } from "../telemetry.ts";

export const SERVICES = ["gateway", "registry", "auth", "users", "confirmation-worker"] as const;
export type ServiceName = (typeof SERVICES)[number];

// Imported when chosen: a process loads only its own service's modules (its idle memory, docs/performance.md).
const starters: Record<ServiceName, (config: Config, logger: Logger, drain: Drain) => Promise<() => Promise<void>>> = {
  gateway: async (c, l, d) => (await import("./gateway.ts")).serveGateway(c, l, d),
  registry: async (c, l, d) => (await import("./core.ts")).serveRegistry(c, l, d),
  auth: async (c, l, d) => (await import("./core.ts")).serveAuth(c, l, d),
  users: async (c, l, d) => (await import("./users.ts")).serveUsers(c, l, d),
  "confirmation-worker": async (c, l, d) => (await import("./worker.ts")).serveConfirmationWorker(c, l, d),
};

/**
 * One service as its own process (start:services, Kubernetes): Connect over
 * HTTP between them. Each opens only its own stores and stops on SIGTERM.
 */
export async function serveOne(name: ServiceName, config: Config, logger: Logger): Promise<() => Promise<void>> {
  const stopTraces = await startTraces(name);
  const drain = createDrain();
  const served = await starters[name](config, logger, drain);
  const close = async () => {
    await served();
    await stopTraces?.(); // the last spans go out before exit
  };
  onShutdown(logger, close, drain, config.shutdownDelaySeconds);
  releaseIdleMemory();
  return close;
}
