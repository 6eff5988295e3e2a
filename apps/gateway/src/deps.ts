import type { Client } from "@connectrpc/connect";
import type { Altcha } from "@gatehouse/abuse";
import type { Config } from "@gatehouse/config";
import type {
  AssertionsService,
  AuthService,
  DeviceAuthorizationService,
  IdentityProvidersService,
  MfaService,
  PasskeysService,
  RedirectOriginsService,
  RegistryAdminService,
  RegistryService,
  UsersAdminService,
  UsersService,
  WebhooksAdminService,
} from "@gatehouse/proto";
import type { AccessTokenVerifier, Drain, RegistryNotices } from "@gatehouse/rpc";

/** What the gateway needs: clients of the services (in-process or HTTP) and its settings. */
export interface GatewayDeps {
  registry: Client<typeof RegistryService>;
  auth: Client<typeof AuthService>;
  /** The auth service's device authorization grant; /oauth2/device_authorization and /device exist only when it is wired. */
  devices?: Client<typeof DeviceAuthorizationService>;
  /** The users service; the /activityid routes exist only when it is wired. */
  users?: Client<typeof UsersService>;
  /** The registry's legal-assertion catalog; the /admin/v1/assertions routes exist only when it is wired. */
  assertions?: Client<typeof AssertionsService>;
  /** The users service's MfaService (TOTP, finishing a 428 login); the MFA routes exist only when it is wired. */
  mfa?: Client<typeof MfaService>;
  /** The users service's PasskeysService; the passkey routes and the hosted login's passkey parts exist only when it is wired. */
  passkeys?: Client<typeof PasskeysService>;
  /** The registry's admin API; the /admin/v1 application, catalog and assertion-history routes exist only when it is wired. */
  registryAdmin?: Client<typeof RegistryAdminService>;
  /** The registry's identity providers (contract section 11); their admin routes and the pages' buttons need it. */
  identityProviders?: Client<typeof IdentityProvidersService>;
  /** The users service's admin API; the /admin/v1/users routes exist only when it is wired. */
  usersAdmin?: Client<typeof UsersAdminService>;
  /** The registry's webhooks admin API; the /admin/v1/webhooks routes exist only when it is wired. */
  webhooksAdmin?: Client<typeof WebhooksAdminService>;
  /**
   * MAC key of the hosted login's CSRF form tokens (derived from SECRET_KEY,
   * label "hosted-login", so every replica agrees). Without it (and the users
   * service) there is no /oauth2/authorize.
   */
  hostedLoginKey?: (data: string) => string;
  /**
   * The ALTCHA checker of the hosted pages (section 17; its keys derived from
   * SECRET_KEY, used solutions in the shared kv). Without it an application
   * with `captcha: "altcha"` gets no registration or code request.
   */
  altcha?: Altcha;
  /** The relying parties' browser origins (the registry's RedirectOriginsService), for CORS of JWKS and discovery. */
  origins?: Client<typeof RedirectOriginsService>;
  /**
   * Subscribes to the registry's notices (a changed application, entry point,
   * catalog or assertion) on the shared kv, which every replica hears. Without
   * it the gateway's caches of the registry expire on their own (30-60 s).
   */
  registryNotices?: RegistryNotices;
  /** Verifies the auth service's access tokens (APP_TOKEN, ACCESS_TOKEN) at the edge. */
  verifyAccessToken?: AccessTokenVerifier;
  /** The console's static build (apps/console/dist); /console says how to build it when it is missing. */
  consoleDir?: string;
  config: Pick<Config, "publicBaseUrl" | "publicGraphUrl" | "publicAuthUrl" | "bodyLimitBytes"> &
    Partial<Pick<Config, "requestTimeoutSeconds" | "trustedProxies" | "httpKeepAliveSeconds">>;
  /** The process's drain (SIGTERM): /readyz answers 503 and every answer closes its connection once it started. */
  drain?: Drain;
  /** Whether the stores and services behind the gateway answer (for /readyz). */
  ready: () => Promise<boolean>;
}

/** The gateway's dependencies with the named optional ones present: what a plugin that needs them is built with. */
export type Wired<K extends keyof GatewayDeps> = GatewayDeps & { [P in K]-?: NonNullable<GatewayDeps[P]> };

/** Whether the named optional dependencies are present; the composition registers the plugins that need them only then. */
export function wired<K extends keyof GatewayDeps>(deps: GatewayDeps, ...keys: K[]): deps is Wired<K> {
  return keys.every((k) => deps[k] !== undefined);
}
