import type { Config } from "@gatehouse/config";
import type { Logger } from "@gatehouse/logging";
import { onShutdown } from "../shutdown.ts";
import { serveAuth, serveRegistry } from "./core.ts";
import { serveGateway } from "./gateway.ts";
import { serveUsers } from "./users.ts";
import { serveConfirmationWorker } from "./worker.ts";

export const SERVICES = ["gateway", "registry", "auth", "users", "confirmation-worker"] as const;
export type ServiceName = (typeof SERVICES)[number];

const starters: Record<ServiceName, (config: Config, logger: Logger) => Promise<() => Promise<void>>> = {
  gateway: serveGateway,
  registry: serveRegistry,
  auth: serveAuth,
  users: serveUsers,
  "confirmation-worker": serveConfirmationWorker,
};

/**
 * One service as its own process (start:services, Kubernetes): Connect over
 * HTTP between them. Each opens only its own stores and stops on SIGTERM.
 */
export async function serveOne(name: ServiceName, config: Config, logger: Logger): Promise<() => Promise<void>> {
  const close = await starters[name](config, logger);
  onShutdown(logger, close);
  return close;
}
