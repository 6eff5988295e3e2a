import { domainError } from "@gatehouse/errors";
import type { GrantContext, GrantParameters, TokenResponse } from "./grant.ts";
import { parseScope } from "../scopes/scope.ts";

/** RFC 6749 section 4.4: a client obtains a token for itself. No refresh token (section 4.4.3). */
export const grantType = "client_credentials";

export const parameters: GrantParameters = { required: [], optional: ["scope"], forbidden: [] };

export async function handler({ client, params, tokens }: GrantContext): Promise<TokenResponse> {
  const scopes = grantedScopes(params.scope, client.allowedScopes);
  const issued = await tokens.issue({ clientId: client.clientId, subject: client.clientId, scopes });
  return { accessToken: issued.token, tokenType: "Bearer", expiresIn: issued.expiresIn, scope: issued.claims.scope };
}

/** The requested scopes when all are allowed; all allowed scopes when none were requested (RFC 6749 section 3.3). */
function grantedScopes(requested: string | undefined, allowed: readonly string[]): string[] {
  if (requested === undefined) return [...allowed];
  const scopes = parseScope(requested);
  if (!scopes) throw domainError("INVALID_SCOPE", "scope must be space-separated scope tokens (RFC 6749 section 3.3)");
  const refused = scopes.filter((s) => !allowed.includes(s));
  if (refused.length) throw domainError("INVALID_SCOPE", `scope not allowed for this client: ${refused.join(" ")}`);
  return scopes;
}
