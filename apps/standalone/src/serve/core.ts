import { createClient, type Interceptor } from "@connectrpc/connect";
import { authMigrations, createAuth, registryClientDirectory } from "@gatehouse/auth";
import type { Config } from "@gatehouse/config";
import type { Logger } from "@gatehouse/logging";
import { AuthService, RegistryService } from "@gatehouse/proto";
import { createRegistry, registryMigrations } from "@gatehouse/registry";
import {
  callerInterceptors,
  type Drain,
  httpTransport,
  inProcessTransport,
  InternalTokens,
  serveService,
  type ServiceModule,
} from "@gatehouse/rpc";
import { bootstrapOperator } from "../bootstrap.ts";
import { ensureConsoleClient } from "../console-bootstrap.ts";
import { closeStores, migrateSchemas, openStores, type Stores } from "../store-drivers.ts";
import {
  accessTokenVerifier,
  authSettings,
  forgetChangedClients,
  kvRegistryNotify,
  ownAccessTokenVerifier,
  serverInterceptors,
} from "../wiring.ts";
import { webhookSettings } from "../webhook-wiring.ts";

/** Opens a service process's own stores (its schema, migrated) and its internal token minter. */
export async function openServiceStores(
  config: Config,
  name: string,
  migrations: Parameters<typeof migrateSchemas>[1],
) {
  const stores = await openStores(config, name);
  await migrateSchemas(stores.db, migrations);
  return { stores, internal: new InternalTokens(stores.keys) };
}

/** Serves a module's routes on its port, with /healthz, /readyz and /metrics; close() also closes the module and stores. */
export async function serveModule(opts: {
  config: Config;
  logger: Logger;
  port: number;
  mod: Pick<ServiceModule, "name" | "routes" | "close">;
  interceptors: Interceptor[];
  ready: () => Promise<boolean>;
  stores: Stores;
  drain: Drain;
}): Promise<() => Promise<void>> {
  const server = await serveService({
    name: opts.mod.name,
    host: opts.config.host,
    port: opts.port,
    routes: opts.mod.routes,
    interceptors: opts.interceptors,
    ready: opts.ready,
    logger: opts.logger,
    drain: opts.drain,
  });
  return async () => {
    await server.close();
    await opts.mod.close();
    await closeStores(opts.stores);
  };
}

/** The registry: applications, entry points, catalogs; verifies operator access tokens with auth's JWKS. */
export async function serveRegistry(config: Config, logger: Logger, drain: Drain): Promise<() => Promise<void>> {
  const { stores, internal } = await openServiceStores(config, "registry", [registryMigrations]);
  const auth = createClient(
    AuthService,
    httpTransport(config.serviceUrls.auth, callerInterceptors(internal, "registry")),
  );
  const notify = kvRegistryNotify(stores.kv, (err) => logger.warn({ err }, "registry notice not published"));
  const mod = await createRegistry({
    db: stores.db,
    keys: stores.keys,
    idp: config.idp,
    logger,
    notify,
    webhooks: webhookSettings(config),
  });
  const interceptors = serverInterceptors(
    mod,
    logger,
    internal,
    accessTokenVerifier(config, stores.kv, () => auth),
  );
  const self = createClient(
    RegistryService,
    inProcessTransport(mod.routes, interceptors, callerInterceptors(internal, "bootstrap")),
  );
  if (config.bootstrapOperator) await bootstrapOperator(self, config.bootstrapOperator, logger);
  await ensureConsoleClient(self, config, logger);
  return serveModule({
    config,
    logger,
    port: config.servicePorts.registry,
    mod,
    interceptors,
    ready: () => mod.ready(),
    stores,
    drain,
  });
}

/** The auth service: OAuth grants, keys, sessions; authenticates clients through the registry. */
export async function serveAuth(config: Config, logger: Logger, drain: Drain): Promise<() => Promise<void>> {
  const { stores, internal } = await openServiceStores(config, "auth", [authMigrations]);
  const registry = createClient(
    RegistryService,
    httpTransport(config.serviceUrls.registry, callerInterceptors(internal, "auth")),
  );
  const clients = registryClientDirectory(registry);
  await forgetChangedClients(stores.kv, clients);
  const mod = await createAuth({
    db: stores.db,
    kv: stores.kv,
    keys: stores.keys,
    logger,
    clients,
    settings: authSettings(config),
  });
  const interceptors = serverInterceptors(mod, logger, internal, ownAccessTokenVerifier(config, mod));
  return serveModule({
    config,
    logger,
    port: config.servicePorts.auth,
    mod,
    interceptors,
    ready: () => mod.ready(),
    stores,
    drain,
  });
}
