import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import type { Config } from "@gatehouse/config";
import { createConfirmationWorker } from "@gatehouse/confirmation-worker";
import { bullmqQueue, memoryQueue, type DeliveryQueue, type MemoryDeliveryQueue } from "@gatehouse/jobs";
import type { Logger } from "@gatehouse/logging";
import { AuthService, RegistryService, UsersService, type Caller, type Session, type User } from "@gatehouse/proto";
import { callerInterceptors, directTransport, type InternalTokens, type ServiceModule } from "@gatehouse/rpc";
import { confirmationStillWanted, createUsers, type ResolvedEntrypoint } from "@gatehouse/users";
import type { Stores } from "./stores.ts";
import { serverInterceptors } from "./wiring.ts";

/** Scope of a user's login session (ACCESS_TOKEN for replace and patch, refresh allowed). */
export const USER_SESSION_SCOPE = "profile offline_access";

/** Entry points from the registry, each kept for 30 s (the registry owns them; edits show within that time). */
export function cachedEntrypoints(registry: Client<typeof RegistryService>, ttlMs = 30_000) {
  const cache = new Map<string, { value: ResolvedEntrypoint | undefined; until: number }>();
  return async (id: string): Promise<ResolvedEntrypoint | undefined> => {
    const hit = cache.get(id);
    if (hit && hit.until > Date.now()) return hit.value;
    let value: ResolvedEntrypoint | undefined;
    try {
      const res = await registry.getEntrypoint({ entrypointId: id });
      value = { entrypoint: res.entrypoint!, clientId: res.clientId, whitelist: res.whitelist, defaultCallback: res.defaultCallback };
    } catch (err) {
      const code = ConnectError.from(err).code;
      if (code !== Code.NotFound && code !== Code.InvalidArgument) throw err;
    }
    if (cache.size >= 10_000) cache.clear();
    cache.set(id, { value, until: Date.now() + ttlMs });
    return value;
  };
}

/** A login session from the auth service, in the shape of the spec's session_info. */
export function sessionOpener(auth: Client<typeof AuthService>) {
  return async (user: User, caller: Caller | undefined): Promise<Session> => {
    const s = await auth.issueUserSession({ userId: user.id, clientId: caller?.clientId ?? "", scope: USER_SESSION_SCOPE });
    return {
      $typeName: "gatehouse.users.v1.Session",
      accessToken: s.accessToken,
      refreshToken: s.refreshToken,
      expiresIn: s.expiresIn,
      expiresAtMs: BigInt(Date.now()) + s.expiresIn * 1000n,
      scope: s.scope,
      connectState: "connected",
    };
  };
}

/** The users service and the confirmation worker of one process, with their queue. */
export async function wireUsers(args: {
  config: Config;
  stores: Stores;
  logger: Logger;
  internal: InternalTokens;
  registry: Client<typeof RegistryService>;
  auth: Client<typeof AuthService>;
}): Promise<{ module: ServiceModule; clientAs(caller: string): Client<typeof UsersService>; close(): Promise<void> }> {
  const { config, stores, logger } = args;
  const queue: DeliveryQueue = config.redisUrl ? bullmqQueue({ redisUrl: config.redisUrl, prefix: config.redisPrefix }) : memoryQueue();
  const mod = await createUsers({
    db: stores.db,
    kv: stores.kv,
    keys: stores.keys,
    logger: logger.child({ service: "users" }),
    entrypoints: cachedEntrypoints(args.registry),
    enqueue: (job) => queue.enqueue(job),
    openSession: sessionOpener(args.auth),
  });
  const worker = await createConfirmationWorker({
    config,
    keys: stores.keys,
    logger: logger.child({ service: "confirmation-worker" }),
    isStillWanted: confirmationStillWanted(stores.db),
    memoryQueue: config.redisUrl ? undefined : (queue as MemoryDeliveryQueue),
  });
  const server = serverInterceptors(mod, logger, args.internal);
  return {
    module: mod,
    clientAs: (caller) => createClient(UsersService, directTransport(mod.routes, server, callerInterceptors(args.internal, caller))),
    async close() {
      await worker.close();
      await queue.close();
      await mod.close();
    },
  };
}
