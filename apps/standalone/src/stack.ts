import { createClient, type Client } from "@connectrpc/connect";
import type { FastifyInstance } from "fastify";
import { createAuth, registryClientDirectory, type ClientDirectory } from "@gatehouse/auth";
import type { Config } from "@gatehouse/config";
import { createGateway } from "@gatehouse/gateway";
import { createLogger, type Logger } from "@gatehouse/logging";
import {
  AssertionsService,
  AuthService,
  EventsService,
  RedirectOriginsService,
  IdentityProvidersService,
  RegistryAdminService,
  RegistryService,
  UserSessionsService,
  WebhooksAdminService,
  DeviceAuthorizationService,
} from "@gatehouse/proto";
import { createRegistry } from "@gatehouse/registry";
import { callerInterceptors, directTransport, DRAIN_GRACE_MS, InternalTokens, type Drain } from "@gatehouse/rpc";
import { bootstrapOperator } from "./bootstrap.ts";
import { closeWithin } from "./shutdown.ts";
import { CONSOLE_DIST } from "./console-build.ts";
import { bootstrapOperatorPerson, ensureConsoleClient } from "./console-bootstrap.ts";
import { closeStores, migrateAll, openStores, type Stores } from "./stores.ts";
import { wireUsers } from "./users-wiring.ts";
import {
  accessTokenVerifier,
  authSettings,
  forgetChangedClients,
  hostedAltcha,
  kvRegistryNotices,
  kvRegistryNotify,
  ownAccessTokenVerifier,
  serverInterceptors,
} from "./wiring.ts";
import { webhookSettings } from "./webhook-wiring.ts";

export interface Stack {
  app: FastifyInstance;
  stores: Stores;
  registry: Client<typeof RegistryService>;
  auth: Client<typeof AuthService>;
  close(): Promise<void>;
}

/**
 * Every service in one process (`npm start`), wired by in-process Connect
 * transports: the same handlers, interceptors and wire format as the separate
 * processes, without the network.
 */
export async function buildStack(
  config: Config,
  logger: Logger = createLogger("gatehouse", config.logLevel),
  drain?: Drain,
): Promise<Stack> {
  const stores = await openStores(config);
  await migrateAll(stores.db);
  const internal = new InternalTokens(stores.keys);
  const { db, kv, keys } = stores;

  // The registry verifies operator tokens with the auth service's keys; auth is built after it.
  const authRef: { client?: Client<typeof AuthService> } = {};
  const verify = accessTokenVerifier(config, kv, () => authRef.client!);

  // This process's auth service hears the registry's notices at once (a Redis notice takes a moment to come back).
  const clientsRef: { current?: ClientDirectory } = {};
  const published = kvRegistryNotify(kv, (err) => logger.warn({ err }, "registry notice not published"));
  const registryMod = await createRegistry({
    db,
    keys,
    idp: config.idp,
    logger: logger.child({ service: "registry" }),
    webhooks: webhookSettings(config),
    notify: (topic, id) => {
      if (topic === "application") clientsRef.current?.forget?.(id);
      return published(topic, id);
    },
  });
  const registryServer = serverInterceptors(registryMod, logger, internal, verify);
  const registryAs = (caller: string) =>
    createClient(
      RegistryService,
      directTransport(registryMod.routes, registryServer, callerInterceptors(internal, caller)),
    );
  const assertionsAs = (caller: string) =>
    createClient(
      AssertionsService,
      directTransport(registryMod.routes, registryServer, callerInterceptors(internal, caller)),
    );

  const clients = (clientsRef.current = registryClientDirectory(registryAs("auth")));
  await forgetChangedClients(kv, clients);
  const authMod = await createAuth({
    db,
    kv,
    keys,
    logger: logger.child({ service: "auth" }),
    clients,
    settings: authSettings(config),
  });
  const authServer = serverInterceptors(authMod, logger, internal, ownAccessTokenVerifier(config, authMod));
  const authAs = (caller: string) =>
    createClient(AuthService, directTransport(authMod.routes, authServer, callerInterceptors(internal, caller)));
  authRef.client = authAs("registry");

  const registry = registryAs("gateway");
  const auth = authAs("gateway");
  if (config.bootstrapOperator) await bootstrapOperator(registryAs("bootstrap"), config.bootstrapOperator, logger);
  await ensureConsoleClient(registryAs("bootstrap"), config, logger);
  const users = await wireUsers({
    config,
    stores,
    logger,
    internal,
    registry: registryAs("users"),
    identityProviders: createClient(
      IdentityProvidersService,
      directTransport(registryMod.routes, registryServer, callerInterceptors(internal, "users")),
    ),
    assertions: assertionsAs("users"),
    auth: authAs("users"),
    userSessions: createClient(
      UserSessionsService,
      directTransport(authMod.routes, authServer, callerInterceptors(internal, "users")),
    ),
    verify,
    hostWorker: true,
    events: createClient(
      EventsService,
      directTransport(registryMod.routes, registryServer, callerInterceptors(internal, "users")),
    ),
  });
  await bootstrapOperatorPerson(users.adminClientAs("bootstrap"), config, logger);

  const app = await createGateway(
    {
      registry,
      auth,
      devices: createClient(
        DeviceAuthorizationService,
        directTransport(authMod.routes, authServer, callerInterceptors(internal, "gateway")),
      ),
      users: users.clientAs("gateway"),
      mfa: users.mfaClientAs("gateway"),
      passkeys: users.passkeysClientAs("gateway"),
      assertions: assertionsAs("gateway"),
      origins: createClient(
        RedirectOriginsService,
        directTransport(registryMod.routes, registryServer, callerInterceptors(internal, "gateway")),
      ),
      registryNotices: kvRegistryNotices(kv),
      registryAdmin: createClient(
        RegistryAdminService,
        directTransport(registryMod.routes, registryServer, callerInterceptors(internal, "gateway")),
      ),
      identityProviders: createClient(
        IdentityProvidersService,
        directTransport(registryMod.routes, registryServer, callerInterceptors(internal, "gateway")),
      ),
      usersAdmin: users.adminClientAs("gateway"),
      webhooksAdmin: createClient(
        WebhooksAdminService,
        directTransport(registryMod.routes, registryServer, callerInterceptors(internal, "gateway")),
      ),
      verifyAccessToken: verify,
      hostedLoginKey: keys.mac("hosted-login"),
      altcha: hostedAltcha(keys, kv),
      consoleDir: CONSOLE_DIST,
      config,
      drain,
      ready: async () => (await registryMod.ready()) && (await authMod.ready()) && (await users.ready()),
    },
    logger,
  );
  return {
    app,
    stores,
    registry,
    auth,
    async close() {
      await closeWithin(app, DRAIN_GRACE_MS);
      await users.close();
      await authMod.close();
      await registryMod.close();
      await closeStores(stores);
    },
  };
}
