import type { Config } from "@gatehouse/config";
import type { Logger } from "@gatehouse/logging";
import { releaseIdleMemory } from "../memory.ts";
import { onShutdown } from "../shutdown.ts";

export const SERVICES = ["gateway", "registry", "auth", "users", "confirmation-worker"] as const;
export type ServiceName = (typeof SERVICES)[number];

// Imported when chosen: a process loads only its own service's modules (its idle memory, docs/performance.md).
const starters: Record<ServiceName, (config: Config, logger: Logger) => Promise<() => Promise<void>>> = {
  gateway: async (c, l) => (await import("./gateway.ts")).serveGateway(c, l),
  registry: async (c, l) => (await import("./core.ts")).serveRegistry(c, l),
  auth: async (c, l) => (await import("./core.ts")).serveAuth(c, l),
  users: async (c, l) => (await import("./users.ts")).serveUsers(c, l),
  "confirmation-worker": async (c, l) => (await import("./worker.ts")).serveConfirmationWorker(c, l),
};

/**
 * One service as its own process (start:services, Kubernetes): Connect over
 * HTTP between them. Each opens only its own stores and stops on SIGTERM.
 */
export async function serveOne(name: ServiceName, config: Config, logger: Logger): Promise<() => Promise<void>> {
  const close = await starters[name](config, logger);
  onShutdown(logger, close);
  releaseIdleMemory();
  return close;
}
