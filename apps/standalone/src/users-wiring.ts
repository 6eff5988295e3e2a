import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { pwnedPasswords } from "@gatehouse/abuse";
import type { Config } from "@gatehouse/config";
import type { Db } from "@gatehouse/db";
import { bullmqQueue, memoryQueue, type DeliveryQueue, type MemoryDeliveryQueue } from "@gatehouse/jobs";
import type { Logger } from "@gatehouse/logging";
import {
  AssertionsService,
  AuthService,
  ConfirmationDeliveryService,
  type EventsService,
  MfaService,
  IdentityProvidersService,
  PasskeysService,
  RegistryService,
  UsersAdminService,
  UsersService,
  UserSessionsService,
} from "@gatehouse/proto";
import {
  callerInterceptors,
  directTransport,
  pwnedCheckFailures,
  type AccessTokenVerifier,
  type InternalTokens,
  type ServiceModule,
} from "@gatehouse/rpc";
import {
  argon2Passwords,
  authGrants,
  authUserSessions,
  createUsers,
  DEFAULT_CONFIRMATION_OPTIONS,
  deliveryOutboxStore,
  registryAssertions,
  registryDataFields,
  registryEntrypoints,
  registryUpstreamClients,
  registryEvents,
} from "@gatehouse/users";
import type { Stores } from "./stores.ts";
import { serverInterceptors } from "./wiring.ts";

/**
 * The delivery queue: BullMQ with REDIS_URL (any process may consume it),
 * else in-process (the worker must share the process), kept in the users
 * schema's outbox table so that a crash loses no delivery.
 */
export function deliveryQueue(config: Config, logger: Logger, db: Db): DeliveryQueue {
  if (config.redisUrl) return bullmqQueue({ redisUrl: config.redisUrl, prefix: config.redisPrefix, logger });
  return memoryQueue({ store: deliveryOutboxStore(db) });
}

/** PWNED_PASSWORDS_URL's range check; a failure lets the password through, logged and counted in /metrics. */
function breachCheck(config: Config, logger: Logger) {
  const url = config.abuse.pwnedPasswordsUrl;
  if (!url) return undefined;
  return pwnedPasswords({
    url,
    onUnavailable(err) {
      pwnedCheckFailures.inc();
      logger.warn({ err }, "breached-password check unavailable; password accepted");
    },
  });
}

export interface WiredUsers {
  module: ServiceModule;
  /** The server interceptors of the users module (observe, authenticate). */
  interceptors: Interceptor[];
  /** Stores, queue and (when hosted here) the worker answer. */
  ready(): Promise<boolean>;
  clientAs(caller: string): Client<typeof UsersService>;
  mfaClientAs(caller: string): Client<typeof MfaService>;
  passkeysClientAs(caller: string): Client<typeof PasskeysService>;
  adminClientAs(caller: string): Client<typeof UsersAdminService>;
  close(): Promise<void>;
}

/**
 * The users service with its delivery queue and, when `hostWorker`, the
 * confirmation worker in the same process (npm start; start:services without
 * REDIS_URL, where the in-process queue cannot be shared). The worker asks
 * CheckDelivery through the in-process transport, as a separate worker does over HTTP.
 */
export async function wireUsers(args: {
  config: Config;
  stores: Stores;
  logger: Logger;
  internal: InternalTokens;
  registry: Client<typeof RegistryService>;
  /** The registry's identity providers (social sign-in: the users service runs the round trip with their secrets). */
  identityProviders: Client<typeof IdentityProvidersService>;
  /** The registry's AssertionsService (legal-assertion catalog). */
  assertions: Client<typeof AssertionsService>;
  auth: Client<typeof AuthService>;
  /** The auth service's sessions of each user (admin view, lock, log out, erasure). */
  userSessions: Client<typeof UserSessionsService>;
  /** Verifies operators' access tokens (the admin RPCs check their scopes). */
  verify: AccessTokenVerifier;
  hostWorker: boolean;
  /** The registry's EventsService: the events outbox is relayed there (servers; not a CLI command). */
  events?: Client<typeof EventsService>;
}): Promise<WiredUsers> {
  const { config, stores, logger, internal } = args;
  const queue = deliveryQueue(config, logger, stores.db);
  const mod = await createUsers({
    db: stores.db,
    kv: stores.kv,
    keys: stores.keys,
    logger: logger.child({ service: "users" }),
    entrypoints: await registryEntrypoints(args.registry, stores.kv),
    assertions: await registryAssertions(args.assertions, stores.kv, config.assertionsCacheTtlSeconds * 1000),
    dataFields: registryDataFields(args.registry),
    upstreamClients: registryUpstreamClients(args.identityProviders, stores.keys),
    idp: config.idp,
    grants: authGrants(args.auth),
    enqueue: (job, tx) => queue.enqueue(job, tx),
    sessions: authUserSessions(args.userSessions),
    loginLimits: config.loginLimits,
    breached: breachCheck(config, logger),
    smsLimits: { perHour: config.abuse.smsPerHour, perPrefixPerHour: config.abuse.smsPerPrefixPerHour },
    relyingParty: { id: config.webauthn.rpId, origins: config.webauthn.origins },
    confirmation: { ...DEFAULT_CONFIRMATION_OPTIONS, ...config.confirmation },
    // Production: the service's own argon2id parameters; only the test suite lowers them (TEST_PASSWORD_HASH).
    ...(config.passwordHashParams ? { passwords: argon2Passwords(config.passwordHashParams) } : {}),
    ...(args.events ? { publishEvents: registryEvents(args.events) } : {}),
  });
  const interceptors = serverInterceptors(mod, logger, internal, args.verify);
  const as = (caller: string) => directTransport(mod.routes, interceptors, callerInterceptors(internal, caller));
  const worker = args.hostWorker
    ? await (
        await import("./worker-wiring.ts")
      ).wireWorker({
        config,
        keys: stores.keys,
        logger,
        deliveries: createClient(ConfirmationDeliveryService, as("confirmation-worker")),
        memoryQueue: config.redisUrl ? undefined : (queue as MemoryDeliveryQueue),
      })
    : undefined;
  return {
    module: mod,
    interceptors,
    ready: async () => (await mod.ready()) && (await queue.ping()) && (worker ? await worker.ready() : true),
    clientAs: (caller) => createClient(UsersService, as(caller)),
    mfaClientAs: (caller) => createClient(MfaService, as(caller)),
    passkeysClientAs: (caller) => createClient(PasskeysService, as(caller)),
    adminClientAs: (caller) => createClient(UsersAdminService, as(caller)),
    async close() {
      await worker?.close(); // active deliveries finish first
      await queue.close();
      await mod.close();
    },
  };
}
