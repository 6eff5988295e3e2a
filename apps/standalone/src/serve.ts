import { createClient } from "@connectrpc/connect";
import { createAuth, registryClientDirectory, authMigrations } from "@gatehouse/auth";
import type { Config } from "@gatehouse/config";
import { createGateway } from "@gatehouse/gateway";
import type { Logger } from "@gatehouse/logging";
import { AuthService, RegistryService } from "@gatehouse/proto";
import { createRegistry, registryMigrations } from "@gatehouse/registry";
import { callerInterceptors, httpTransport, inProcessTransport, InternalTokens, serveService } from "@gatehouse/rpc";
import { loadKeyRing } from "@gatehouse/secrets";
import { bootstrapOperator } from "./bootstrap.ts";
import { onShutdown } from "./shutdown.ts";
import { closeStores, migrateAll, openStores } from "./stores.ts";
import { accessTokenVerifier, authSettings, serverInterceptors } from "./wiring.ts";

export const SERVICES = ["gateway", "registry", "auth"] as const;
export type ServiceName = (typeof SERVICES)[number];

/** One service as its own process (start:services, Kubernetes): Connect over HTTP between them. */
export async function serveOne(name: ServiceName, config: Config, logger: Logger): Promise<() => Promise<void>> {
  if (name === "gateway") return serveGateway(config, logger);
  const stores = await openStores(config, name);
  const internal = new InternalTokens(stores.keys);
  const authClient = createClient(AuthService, httpTransport(config.serviceUrls.auth, callerInterceptors(internal, name)));
  let mod;
  if (name === "registry") {
    await migrateAll(stores.db, [registryMigrations]);
    mod = await createRegistry({ db: stores.db, keys: stores.keys, logger });
  } else {
    await migrateAll(stores.db, [authMigrations]);
    const registry = createClient(RegistryService, httpTransport(config.serviceUrls.registry, callerInterceptors(internal, "auth")));
    mod = await createAuth({
      db: stores.db,
      kv: stores.kv,
      keys: stores.keys,
      logger,
      clients: registryClientDirectory(registry),
      settings: authSettings(config),
    });
  }
  const verify = name === "registry" ? accessTokenVerifier(config, stores.kv, () => authClient) : undefined;
  const interceptors = serverInterceptors(mod, logger, internal, verify);
  if (name === "registry" && config.bootstrapOperator) {
    const self = createClient(RegistryService, inProcessTransport(mod.routes, interceptors, callerInterceptors(internal, "bootstrap")));
    await bootstrapOperator(self, config.bootstrapOperator, logger);
  }
  const server = await serveService({
    name,
    host: config.host,
    port: name === "registry" ? config.servicePorts.registry : config.servicePorts.auth,
    routes: mod.routes,
    interceptors,
    ready: () => mod.ready(),
    logger,
  });
  const close = async () => {
    await server.close();
    await mod.close();
    await closeStores(stores);
  };
  onShutdown(logger, close);
  return close;
}

async function serveGateway(config: Config, logger: Logger): Promise<() => Promise<void>> {
  // The gateway holds no store, only the key that signs its internal service tokens.
  const keys = await loadKeyRing(config.secretKey, config.dataDir);
  const internal = new InternalTokens(keys);
  const caller = callerInterceptors(internal, "gateway");
  const probe = async (base: string) => (await fetch(`${base}/readyz`).catch(() => undefined))?.ok === true;
  const app = await createGateway(
    {
      registry: createClient(RegistryService, httpTransport(config.serviceUrls.registry, caller)),
      auth: createClient(AuthService, httpTransport(config.serviceUrls.auth, caller)),
      config,
      ready: async () => (await probe(config.serviceUrls.registry)) && (await probe(config.serviceUrls.auth)),
    },
    logger,
  );
  await app.listen({ port: config.port, host: config.host });
  const close = () => app.close();
  onShutdown(logger, close);
  return close;
}
