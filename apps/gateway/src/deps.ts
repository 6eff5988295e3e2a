import type { Client } from "@connectrpc/connect";
import type { Config } from "@gatehouse/config";
import type { AuthService, RegistryService } from "@gatehouse/proto";

/** What the gateway needs: clients of the services (in-process or HTTP) and its settings. */
export interface GatewayDeps {
  registry: Client<typeof RegistryService>;
  auth: Client<typeof AuthService>;
  config: Pick<Config, "publicBaseUrl" | "publicGraphUrl" | "publicAuthUrl" | "bodyLimitBytes">;
  /** Whether the stores and services behind the gateway answer (for /readyz). */
  ready: () => Promise<boolean>;
}
