import type { Logger } from "@gatehouse/logging";
import type { AuthenticatedClient } from "../clients/client-directory.ts";
import type { AuthorizationCodes } from "../codes/authorization-codes.ts";
import type { DeviceAuthorizations } from "../device/devices.ts";
import type { Sessions } from "../sessions/sessions.ts";
import type { AccessTokens } from "../tokens/access-token.ts";
import type { IdTokens } from "../tokens/id-token.ts";

/** The form parameters a grant reads, besides grant_type and client authentication. */
export interface GrantParameters {
  /** Missing (or empty, RFC 6749 section 3.1) -> invalid_request. */
  required: readonly string[];
  optional: readonly string[];
  /** Present -> invalid_request; every other unknown parameter is ignored (RFC 6749 section 3.2). */
  forbidden: readonly string[];
}

export interface GrantContext {
  client: AuthenticatedClient;
  /** Only the grant's declared parameters that were given with a value. */
  params: Readonly<Record<string, string>>;
  tokens: AccessTokens;
  sessions: Sessions;
  codes: AuthorizationCodes;
  devices: DeviceAuthorizations;
  idTokens: IdTokens;
  logger?: Logger;
}

/** RFC 6749 section 5.1 access token response. */
export interface TokenResponse {
  accessToken: string;
  tokenType: "Bearer";
  expiresIn: number;
  scope: string;
  refreshToken?: string;
  idToken?: string;
}

/** One grant of the token endpoint; each lives in its own file exporting these names. */
export interface GrantModule {
  grantType: string;
  parameters: GrantParameters;
  /** Whether public clients (entry points, no secret) may use it; otherwise unauthorized_client. */
  publicClients?: boolean;
  handler(ctx: GrantContext): Promise<TokenResponse>;
}
