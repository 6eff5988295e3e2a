import * as clientCredentials from "./client-credentials.ts";
import type { GrantModule } from "./grant.ts";
import * as refreshToken from "./refresh-token.ts";

export type { GrantContext, GrantModule, GrantParameters, TokenResponse } from "./grant.ts";

/** grant_type -> grant. authorization_code joins here when it exists. */
export type GrantRegistry = ReadonlyMap<string, GrantModule>;

export function grantRegistry(grants: readonly GrantModule[] = [clientCredentials, refreshToken]): GrantRegistry {
  return new Map(grants.map((g) => [g.grantType, g]));
}
