import { createClient, type Client } from "@connectrpc/connect";
import { createAuth, registryClientDirectory } from "@gatehouse/auth";
import type { Config } from "@gatehouse/config";
import type { Logger } from "@gatehouse/logging";
import {
  AssertionsService,
  AuthService,
  RegistryAdminService,
  IdentityProvidersService,
  RegistryService,
  UsersAdminService,
  UserSessionsService,
} from "@gatehouse/proto";
import { createRegistry } from "@gatehouse/registry";
import {
  ADMIN_READ_SCOPE,
  callerInterceptors,
  inProcessTransport,
  InternalTokens,
  type ServiceModule,
} from "@gatehouse/rpc";
import { closeStores, migrateAll, openStores, type Stores } from "../stores.ts";
import { wireUsers } from "../users-wiring.ts";
import { accessTokenVerifier, authSettings, kvRegistryNotify, serverInterceptors } from "../wiring.ts";

/** The services a CLI command calls, in this process, over the same RPC handlers and policies as the API's. */
export interface CliServices {
  stores: Stores;
  /** RegistryService as the internal caller `cli` (operator clients). */
  registry: Client<typeof RegistryService>;
  /** The admin RPCs as `service:cli` with admin:read: reads only, like an operator's read-only token. */
  registryAdmin: Client<typeof RegistryAdminService>;
  /** Present when asked for (`users: true`): the users service, with the auth service for sessions. */
  usersAdmin?: Client<typeof UsersAdminService>;
  close(): Promise<void>;
}

/**
 * Opens the deployment's stores (the embedded database takes DATA_DIR's lock:
 * with a server running there this throws DataDirLockedError at once),
 * applies pending migrations as every server does at start, and builds the
 * registry (and, for `users`, the auth and users services) without a gateway,
 * worker or listener.
 */
export async function openCliServices(
  config: Config,
  logger: Logger,
  opts: { users?: boolean } = {},
): Promise<CliServices> {
  const stores = await openStores(config);
  const modules: ServiceModule[] = [];
  let usersClose: (() => Promise<void>) | undefined;
  try {
    await migrateAll(stores.db);
    const internal = new InternalTokens(stores.keys);
    const as = (caller: string, scopes: readonly string[] = []) => callerInterceptors(internal, caller, scopes);
    const authRef: { client?: Client<typeof AuthService> } = {};
    const verify = accessTokenVerifier(config, stores.kv, () => authRef.client!);
    // A rotated operator secret reaches the running servers' caches too (Redis pub/sub).
    const notify = kvRegistryNotify(stores.kv, (err) => logger.warn({ err }, "registry notice not published"));
    const registryMod = await createRegistry({
      db: stores.db,
      keys: stores.keys,
      idp: config.idp,
      logger: logger.child({ service: "registry" }),
      notify,
    });
    modules.push(registryMod);
    const registryServer = serverInterceptors(registryMod, logger, internal, verify);
    const registryAs = <
      S extends
        | typeof RegistryService
        | typeof RegistryAdminService
        | typeof AssertionsService
        | typeof IdentityProvidersService,
    >(
      service: S,
      caller: string,
      scopes?: readonly string[],
    ) => createClient(service, inProcessTransport(registryMod.routes, registryServer, as(caller, scopes)));
    const services: CliServices = {
      stores,
      registry: registryAs(RegistryService, "cli"),
      registryAdmin: registryAs(RegistryAdminService, "cli", [ADMIN_READ_SCOPE]),
      close: async () => {
        await usersClose?.();
        for (const m of modules.reverse()) await m.close();
        await closeStores(stores);
      },
    };
    if (!opts.users) return services;

    const authMod = await createAuth({
      db: stores.db,
      kv: stores.kv,
      keys: stores.keys,
      logger: logger.child({ service: "auth" }),
      clients: registryClientDirectory(registryAs(RegistryService, "auth")),
      settings: authSettings(config),
    });
    modules.push(authMod);
    const authServer = serverInterceptors(authMod, logger, internal);
    const authAs = <S extends typeof AuthService | typeof UserSessionsService>(service: S) =>
      createClient(service, inProcessTransport(authMod.routes, authServer, as("users")));
    authRef.client = authAs(AuthService);
    // No worker here: a CLI never delivers the messages a server left queued.
    const users = await wireUsers({
      config,
      stores,
      logger,
      internal,
      registry: registryAs(RegistryService, "users"),
      identityProviders: registryAs(IdentityProvidersService, "users"),
      assertions: registryAs(AssertionsService, "users"),
      auth: authAs(AuthService),
      userSessions: authAs(UserSessionsService),
      verify,
      hostWorker: false,
    });
    usersClose = () => users.close();
    services.usersAdmin = createClient(
      UsersAdminService,
      inProcessTransport(users.module.routes, users.interceptors, as("cli", [ADMIN_READ_SCOPE])),
    );
    return services;
  } catch (err) {
    await usersClose?.().catch(() => undefined);
    for (const m of modules.reverse()) await m.close().catch(() => undefined);
    await closeStores(stores).catch(() => undefined);
    throw err;
  }
}
