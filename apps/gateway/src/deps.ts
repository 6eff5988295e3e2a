import type { Client } from "@connectrpc/connect";
import type { Config } from "@gatehouse/config";
import type { AuthService, RegistryService, UsersService } from "@gatehouse/proto";
import type { AccessTokenVerifier } from "@gatehouse/rpc";

/** What the gateway needs: clients of the services (in-process or HTTP) and its settings. */
export interface GatewayDeps {
  registry: Client<typeof RegistryService>;
  auth: Client<typeof AuthService>;
  /** The users service; the /activityid routes exist only when it is wired. */
  users?: Client<typeof UsersService>;
  /** Verifies the auth service's access tokens (APP_TOKEN, ACCESS_TOKEN) at the edge. */
  verifyAccessToken?: AccessTokenVerifier;
  config: Pick<Config, "publicBaseUrl" | "publicGraphUrl" | "publicAuthUrl" | "bodyLimitBytes">;
  /** Whether the stores and services behind the gateway answer (for /readyz). */
  ready: () => Promise<boolean>;
}
