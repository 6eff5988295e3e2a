// Every OAuth scope Gatehouse knows, declared once: the registry grants them
// to clients, the auth service issues and publishes them, the services'
// RPC policies and the gateway check them.

/** Internal service tokens (`libs/rpc/src/internal-token.ts`); never issued to clients. */
export const INTERNAL_SCOPE = "internal";

/** An application's APP_TOKEN for the user endpoints (registration, login). */
export const USERS_ACCESS_SCOPE = "users:access";
/** Operators: create applications (`POST /v2/apps`). */
export const APPS_WRITE_SCOPE = "apps:write";
/** Operators: read applications and catalogs. */
export const APPS_READ_SCOPE = "apps:read";
/** Operators: the whole admin API (implies admin:read and admin:write). */
export const ADMIN_SCOPE = "admin";
/** Operators: the admin API's reads (every GET under /admin/v1). */
export const ADMIN_READ_SCOPE = "admin:read";
/** Operators: the admin API's changes (every other method under /admin/v1). */
export const ADMIN_WRITE_SCOPE = "admin:write";

/** Any one of these reads through the admin API (`admin` implies `admin:read`). */
export const ADMIN_READ_SCOPES: readonly string[] = [ADMIN_READ_SCOPE, ADMIN_SCOPE];
/** Any one of these changes through the admin API (`admin` implies `admin:write`). */
export const ADMIN_WRITE_SCOPES: readonly string[] = [ADMIN_WRITE_SCOPE, ADMIN_SCOPE];

/**
 * Scopes a user may grant an application at the hosted login (authorization
 * code flow); discovery publishes these alone (client_credentials scopes are
 * per client and not advertised).
 */
export const USER_SCOPES: readonly string[] = ["openid", "profile", "email", "offline_access"];

/** The scope of a login session opened by `/activityid/v1/user/access` (ACCESS_TOKEN for replace and patch, refresh allowed). */
export const USER_SESSION_SCOPE = "profile offline_access";

/**
 * Scopes an operator person may ask for at the hosted login, through the
 * console's public client only (`CONSOLE_CLIENT_ID`), and only granted to
 * users with the operator role.
 */
export const OPERATOR_PERSON_SCOPES: readonly string[] = [ADMIN_SCOPE, ADMIN_READ_SCOPE, ADMIN_WRITE_SCOPE];

/** Scopes each kind of client may ask for with client_credentials. */
export const CLIENT_SCOPES = {
  application: [USERS_ACCESS_SCOPE],
  operator: [APPS_WRITE_SCOPE, APPS_READ_SCOPE, ADMIN_SCOPE, ADMIN_READ_SCOPE, ADMIN_WRITE_SCOPE],
} as const satisfies Record<string, readonly string[]>;
