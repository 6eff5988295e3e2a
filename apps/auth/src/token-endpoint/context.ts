import type { Logger } from "@gatehouse/logging";
import type { ClientCredentials } from "@gatehouse/proto";
import type { AuthenticatedClient, ClientDirectory } from "../clients/client-directory.ts";
import type { AuthorizationCodes } from "../codes/authorization-codes.ts";
import type { DeviceAuthorizations } from "../device/devices.ts";
import type { IdTokens } from "../tokens/id-token.ts";
import type { GrantModule, GrantRegistry, TokenResponse } from "../grants/index.ts";
import type { Sessions } from "../sessions/sessions.ts";
import type { AccessTokens } from "../tokens/access-token.ts";

export interface TokenEndpointDeps {
  clients: ClientDirectory;
  grants: GrantRegistry;
  tokens: AccessTokens;
  sessions: Sessions;
  codes: AuthorizationCodes;
  devices: DeviceAuthorizations;
  idTokens: IdTokens;
  logger?: Logger;
}

/** One token request as it moves through the steps; each step fills in what the next needs. */
export interface TokenEndpointContext {
  readonly deps: TokenEndpointDeps;
  readonly request: {
    client: ClientCredentials | undefined;
    grantType: string;
    parameters: Readonly<Record<string, string>>;
  };
  client?: AuthenticatedClient;
  grant?: GrantModule;
  params?: Record<string, string>;
  response?: TokenResponse;
}

export type TokenStep = (ctx: TokenEndpointContext) => Promise<void>;

/** A value an earlier step must have set (a mis-ordered chain is a programming error). */
export function fromEarlierStep<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`token endpoint: ${what} is not set; check the order of the steps`);
  return value;
}
