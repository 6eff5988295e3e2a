import * as authorizationCode from "./authorization-code.ts";
import * as clientCredentials from "./client-credentials.ts";
import * as deviceCode from "./device-code.ts";
import type { GrantModule } from "./grant.ts";
import * as refreshToken from "./refresh-token.ts";

export type { GrantContext, GrantModule, GrantParameters, TokenResponse } from "./grant.ts";

/** grant_type -> grant. */
export type GrantRegistry = ReadonlyMap<string, GrantModule>;

export function grantRegistry(
  grants: readonly GrantModule[] = [authorizationCode, clientCredentials, refreshToken, deviceCode],
): GrantRegistry {
  return new Map(grants.map((g) => [g.grantType, g]));
}
