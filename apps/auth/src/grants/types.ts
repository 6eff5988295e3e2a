import type { AuthenticatedClient } from "../clients/directory.ts";
import type { KeyManager } from "../keys/manager.ts";
import type { TokenSettings } from "../tokens/access-token.ts";

/** What every grant handler may use. */
export interface GrantContext {
  client: AuthenticatedClient;
  /** Form parameters other than grant_type and the client credentials, each given once. */
  params: Record<string, string>;
  keys: KeyManager;
  settings: TokenSettings;
}

/** RFC 6749 section 5.1 */
export interface TokenResult {
  accessToken: string;
  tokenType: "Bearer";
  expiresIn: number;
  scope: string;
  refreshToken?: string;
  idToken?: string;
}

/** One grant type of the token endpoint (one file each, as in node-oidc-provider). */
export interface Grant {
  grantType: string;
  /** Parameters the grant requires; others are ignored (RFC 6749 section 3.2). */
  parameters: { required: readonly string[]; optional: readonly string[] };
  handler(ctx: GrantContext): Promise<TokenResult>;
}
