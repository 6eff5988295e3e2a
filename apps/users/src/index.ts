import { fileURLToPath } from "node:url";
import type { Migrations } from "@gatehouse/db";
import type { MfaLimits } from "./mfa/factor.ts";
import { ConfirmationDeliveryService, MfaService, UsersAdminService, UsersService } from "@gatehouse/proto";
import type { ServiceModule } from "@gatehouse/rpc";
import { recordingLogins } from "./admin/login-record.ts";
import type { UserSessions } from "./admin/sessions.ts";
import { createUsersAdminService, usersAdminPolicy } from "./admin/users-admin-service.ts";
import { confirmationDeliveryPolicy, createConfirmationDeliveryService } from "./delivery-service.ts";
import { createMfaService, mfaPolicy } from "./mfa/mfa-service.ts";
import { argon2Passwords } from "./credentials/passwords.ts";
import { usersPolicy } from "./policy.ts";
import { createLoginFlow, createUsersService, type UsersServiceDeps } from "./users-service.ts";

/** The users service's tables live in the `users` schema. */
export const usersMigrations: Migrations = {
  schema: "users",
  dir: fileURLToPath(new URL("../migrations", import.meta.url)),
};

export type UsersDeps = UsersServiceDeps & {
  mfaLimits?: MfaLimits;
  /** The auth service's sessions of each user (admin view, lock, log out, erasure). */
  sessions?: UserSessions;
};

/** The users service module: users, credentials, identifiers and their confirmation. */
export async function createUsers(given: UsersDeps): Promise<ServiceModule> {
  const deps = {
    ...given,
    // One password hasher for every service of the module: one gate of argon2 runs per process.
    passwords: given.passwords ?? argon2Passwords(),
    // Every session opened: refused for a locked account, recorded as the last login.
    openSession: given.openSession && recordingLogins(given.db, given.openSession, given.sessions),
  };
  const flow = createLoginFlow(deps);
  const service = createUsersService(deps, flow);
  const mfa = createMfaService({ ...deps, flow });
  return {
    name: "users",
    routes: (router) => {
      router.service(UsersService, service);
      router.service(ConfirmationDeliveryService, createConfirmationDeliveryService(deps));
      router.service(MfaService, mfa);
      router.service(UsersAdminService, createUsersAdminService(deps));
    },
    // The services' methods, by local name (each local name is unique across them).
    policy: { ...usersPolicy, ...confirmationDeliveryPolicy, ...mfaPolicy, ...usersAdminPolicy },
    ready: async () => (await deps.db.ping()) && (await deps.kv.ping()),
    // The database and kv belong to the launcher, which closes them.
    close: async () => undefined,
  };
}

export { usersPolicy } from "./policy.ts";
export { argon2Passwords, DEFAULT_HASH_PARAMS, type Passwords, type HashParams } from "./credentials/passwords.ts";
export { DEFAULT_LOGIN_LIMITS, type LoginLimits } from "./login/throttle.ts";
export { DEFAULT_CONFIRMATION_OPTIONS, type ConfirmationOptions } from "./confirmation/options.ts";
export type { ResolvedEntrypoint } from "./users-service.ts";
export type { AssertionCatalog, CatalogAssertion } from "./terms/catalog.ts";
export { DEFAULT_MFA_LIMITS, type MfaLimits } from "./mfa/factor.ts";
export { totpCode } from "./mfa/totp.ts";
export type { UserSessions, UserSessionInfo } from "./admin/sessions.ts";
