import { fileURLToPath } from "node:url";
import type { Migrations } from "@gatehouse/db";
import {
  ConfirmationDeliveryService,
  MfaService,
  PasskeysService,
  UsersAdminService,
  UsersService,
} from "@gatehouse/proto";
import type { ServiceModule } from "@gatehouse/rpc";
import { createUsersAdminService, usersAdminPolicy } from "./admin/users-admin-service.ts";
import { backgroundTasks } from "./background.ts";
import { composeUsers } from "./compose.ts";
import type { UsersDeps } from "./deps.ts";
import { confirmationDeliveryPolicy, createConfirmationDeliveryService } from "./delivery/service.ts";
import { deliveryStore } from "./delivery/store.ts";
import { createMfaService, mfaPolicy } from "./mfa-service.ts";
import { createPasskeysService, passkeysPolicy } from "./passkeys-service.ts";
import { usersPolicy } from "./policy.ts";
import { createUsersService } from "./users-service.ts";

/** The users service's tables live in the `users` schema. */
export const usersMigrations: Migrations = {
  schema: "users",
  dir: fileURLToPath(new URL("../migrations", import.meta.url)),
};

/** The users service module: users, credentials, identifiers and their confirmation, the login flow, MFA, the admin operations. */
export async function createUsers(given: UsersDeps): Promise<ServiceModule> {
  const parts = composeUsers(given);
  const background = backgroundTasks(parts.logger);
  const service = createUsersService(parts, background);
  const mfa = createMfaService(parts);
  return {
    name: "users",
    routes: (router) => {
      router.service(UsersService, service);
      router.service(ConfirmationDeliveryService, createConfirmationDeliveryService(deliveryStore(parts.db)));
      router.service(MfaService, mfa);
      router.service(UsersAdminService, createUsersAdminService(parts));
      router.service(PasskeysService, createPasskeysService(parts));
    },
    // The services' methods, by local name (each local name is unique across them).
    policy: { ...usersPolicy, ...confirmationDeliveryPolicy, ...mfaPolicy, ...usersAdminPolicy, ...passkeysPolicy },
    ready: async () => (await parts.db.ping()) && (await parts.kv.ping()),
    // The database and kv belong to the launcher, which closes them; work begun after an answer finishes first.
    close: async () => {
      await background.drain();
      await parts.relay?.close();
    },
  };
}

export type { UsersDeps } from "./deps.ts";
export type {
  AssertionCatalog,
  EntrypointDirectory,
  LoginGrants,
  ResolvedEntrypoint,
  UserSessionInfo,
  UserSessions,
} from "./ports.ts";
export { registryAssertions, registryDataFields, registryEntrypoints } from "./adapters/registry.ts";
export { registryUpstreamClients } from "./adapters/identity-providers.ts";
export { authGrants, authUserSessions } from "./adapters/auth.ts";
export { registryEvents } from "./adapters/events.ts";
export { usersPolicy } from "./policy.ts";
export { argon2Passwords, DEFAULT_HASH_PARAMS, type Passwords, type HashParams } from "./credentials/passwords.ts";
export { DEFAULT_LOGIN_LIMITS, type LoginLimits } from "./verifiers/throttle.ts";
export { DEFAULT_CONFIRMATION_OPTIONS, type ConfirmationOptions } from "./confirmation/options.ts";
export { DEFAULT_MFA_LIMITS, type MfaLimits } from "./verifiers/totp/limits.ts";
export { DEFAULT_ACCESS_CODE_OPTIONS, type AccessCodeOptions } from "./access-code/options.ts";
export { totpCode } from "./verifiers/totp/totp.ts";
export { deliveryOutboxStore } from "./delivery/outbox-store.ts";
export type { PublishEvents } from "./events/relay.ts";
