import { fileURLToPath } from "node:url";
import type { Db, Migrations } from "@gatehouse/db";
import type { Logger } from "@gatehouse/logging";
import { DEFAULT_TIMEOUT_MS, type OutboundPolicy } from "@gatehouse/idp";
import { DEFAULT_RETRY_SCHEDULE, type RetrySchedule, type TargetPolicy } from "@gatehouse/events";
import {
  AssertionsService,
  EventsService,
  IdentityProvidersService,
  RedirectOriginsService,
  RegistryAdminService,
  RegistryService,
  WebhooksAdminService,
} from "@gatehouse/proto";
import type { RegistryNotify, ServiceModule } from "@gatehouse/rpc";
import type { KeyRing } from "@gatehouse/secrets";
import { registryAdminPolicy } from "./admin/policy.ts";
import { createRegistryAdminService } from "./admin/registry-admin-service.ts";
import { assertionsPolicy, createAssertionsService } from "./assertions/assertions-service.ts";
import { catalogStore } from "./catalogs/store.ts";
import { clientSecrets } from "./credentials/secrets.ts";
import { createIdentityProvidersService, identityProvidersPolicy } from "./identity-providers/service.ts";
import { createRedirectOriginsService, redirectOriginsPolicy } from "./origins/redirect-origins-service.ts";
import { registryPolicy } from "./policy.ts";
import { createRegistryService } from "./registry-service.ts";
import { webhookSecrets } from "./webhooks/secrets.ts";
import { createEventsService, createWebhooksAdminService, webhooksPolicy } from "./webhooks/service.ts";
import { startWebhookWorker } from "./webhooks/worker.ts";

/** The registry's tables live in the `registry` schema. */
export const registryMigrations: Migrations = {
  schema: "registry",
  dir: fileURLToPath(new URL("../migrations", import.meta.url)),
};

export interface RegistryDeps {
  db: Db;
  keys: KeyRing;
  logger: Logger;
  /**
   * Tells the other services' caches that something they read changed (an
   * application created or its settings changed, the assertion catalog); the
   * launcher publishes it over the shared kv. Optional: the caches also
   * expire on their own.
   */
  notify?: RegistryNotify;
  /** Calls to identity providers' issuers (config `idp`); default: public https only, 10 s. */
  idp?: OutboundPolicy;
  options?: {
    /** A face verification platform is purchased: national_id fields may set requiresVerification. */
    faceVerification?: boolean;
  };
  /**
   * Webhook targets and retries (contract section 14). `deliver` runs the
   * delivery worker in this module (the servers; not a CLI command).
   */
  webhooks?: Partial<TargetPolicy> & { deliver?: boolean; schedule?: RetrySchedule; pollMs?: number };
}

/** The registry service module: applications, entry points, client credentials, catalogs. */
export async function createRegistry(deps: RegistryDeps): Promise<ServiceModule> {
  const secrets = clientSecrets(deps.keys);
  const options = { faceVerification: deps.options?.faceVerification ?? false };
  const service = createRegistryService({
    db: deps.db,
    catalogs: catalogStore(deps.db),
    secrets,
    options,
    logger: deps.logger,
    notify: deps.notify,
  });
  const policy: TargetPolicy = { allowPrivate: deps.webhooks?.allowPrivate ?? false };
  const worker = deps.webhooks?.deliver
    ? startWebhookWorker({
        db: deps.db,
        keys: deps.keys,
        logger: deps.logger.child({ component: "webhooks" }),
        post: policy,
        schedule: deps.webhooks.schedule ?? DEFAULT_RETRY_SCHEDULE,
        pollMs: deps.webhooks.pollMs,
      })
    : undefined;
  const wake = () => worker?.wake();
  const webhookAdmin = { db: deps.db, secrets: webhookSecrets(deps.keys), policy, wake };
  return {
    name: "registry",
    routes: (router) => {
      router.service(RegistryService, service);
      router.service(
        AssertionsService,
        createAssertionsService({
          db: deps.db,
          catalogs: catalogStore(deps.db),
          logger: deps.logger,
          notify: deps.notify,
        }),
      );
      router.service(
        IdentityProvidersService,
        createIdentityProvidersService({
          db: deps.db,
          keys: deps.keys,
          policy: deps.idp ?? { allowPrivate: false, timeoutMs: DEFAULT_TIMEOUT_MS },
          notify: deps.notify,
        }),
      );
      router.service(RedirectOriginsService, createRedirectOriginsService({ db: deps.db }));
      router.service(
        RegistryAdminService,
        createRegistryAdminService({ db: deps.db, secrets, options, logger: deps.logger, notify: deps.notify }),
      );
      router.service(EventsService, createEventsService(deps.db, wake));
      router.service(WebhooksAdminService, createWebhooksAdminService(webhookAdmin));
    },
    // Every service's methods, by local name (the local names are distinct across them all).
    policy: {
      ...registryPolicy,
      ...assertionsPolicy,
      ...redirectOriginsPolicy,
      ...registryAdminPolicy,
      ...identityProvidersPolicy,
      ...webhooksPolicy,
    },
    ready: () => deps.db.ping(),
    // The database belongs to the launcher, which closes it; the worker finishes its attempts first.
    close: async () => await worker?.close(),
  };
}

export { registryPolicy } from "./policy.ts";
