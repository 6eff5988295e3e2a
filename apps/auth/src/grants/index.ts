import * as clientCredentials from "./client-credentials.ts";
import type { GrantModule } from "./grant.ts";

export type { GrantContext, GrantModule, GrantParameters, TokenResponse } from "./grant.ts";

/** grant_type -> grant. refresh_token and authorization_code join here when they exist. */
export type GrantRegistry = ReadonlyMap<string, GrantModule>;

export function grantRegistry(grants: readonly GrantModule[] = [clientCredentials]): GrantRegistry {
  return new Map(grants.map((g) => [g.grantType, g]));
}
