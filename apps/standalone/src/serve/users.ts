import { createClient } from "@connectrpc/connect";
import type { Config } from "@gatehouse/config";
import type { Logger } from "@gatehouse/logging";
import {
  AssertionsService,
  AuthService,
  EventsService,
  IdentityProvidersService,
  RegistryService,
  UserSessionsService,
} from "@gatehouse/proto";
import { callerInterceptors, httpTransport, type Drain } from "@gatehouse/rpc";
import { usersMigrations } from "@gatehouse/users";
import { bootstrapOperatorPerson } from "../console-bootstrap.ts";
import { wireUsers } from "../users-wiring.ts";
import { accessTokenVerifier } from "../wiring.ts";
import { openServiceStores, serveModule } from "./core.ts";

/**
 * The users service (UsersService and ConfirmationDeliveryService). With
 * REDIS_URL it only produces BullMQ jobs and `serve confirmation-worker`
 * consumes them; without it the queue is in-process, so this process also
 * runs the worker (nothing else could reach that queue).
 */
export async function serveUsers(config: Config, logger: Logger, drain: Drain): Promise<() => Promise<void>> {
  const { stores, internal } = await openServiceStores(config, "users", [usersMigrations]);
  const caller = callerInterceptors(internal, "users");
  const hostWorker = !config.redisUrl;
  const auth = createClient(AuthService, httpTransport(config.serviceUrls.auth, caller));
  if (hostWorker)
    logger.info("no REDIS_URL: the confirmation worker runs in the users process, on its in-process queue");
  const users = await wireUsers({
    config,
    stores,
    logger,
    internal,
    registry: createClient(RegistryService, httpTransport(config.serviceUrls.registry, caller)),
    identityProviders: createClient(IdentityProvidersService, httpTransport(config.serviceUrls.registry, caller)),
    assertions: createClient(AssertionsService, httpTransport(config.serviceUrls.registry, caller)),
    auth,
    userSessions: createClient(UserSessionsService, httpTransport(config.serviceUrls.auth, caller)),
    // Operators call the admin RPCs with their own access tokens (verified with auth's JWKS).
    verify: accessTokenVerifier(config, stores.kv, () => auth),
    hostWorker,
    events: createClient(EventsService, httpTransport(config.serviceUrls.registry, caller)),
  });
  await bootstrapOperatorPerson(users.adminClientAs("bootstrap"), config, logger);
  return serveModule({
    config,
    logger,
    port: config.servicePorts.users,
    mod: { name: users.module.name, routes: users.module.routes, close: () => users.close() },
    interceptors: users.interceptors,
    ready: () => users.ready(),
    stores,
    drain,
  });
}
