import { domainError, validationError, type Violation } from "@gatehouse/errors";
import { parseScope } from "../grants/scope.ts";
import type { Sessions } from "../sessions/sessions.ts";
import type { AccessTokens } from "../tokens/access-token.ts";
import type { ClientDirectory } from "../clients/client-directory.ts";
import type { AuthorizationCodes } from "./authorization-codes.ts";

// RFC 7636 section 4.2: S256 challenges are the 43-character base64url SHA-256 digest.
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_URI_LENGTH = 2048;
const MAX_NONCE_LENGTH = 512;

export interface IssueCodeRequest {
  loginAccessToken: string;
  clientId: string;
  redirectUri: string;
  scope: string;
  codeChallenge: string;
  codeChallengeMethod: string;
  nonce: string;
}

/**
 * The hosted login succeeded: bind a code to that login and to the
 * authorization request. The login's own access token (its session was
 * opened by the users service for this client) proves who logged in; that
 * session is ended, since the code grant opens the one the client will hold.
 */
export async function issueAuthorizationCode(
  deps: { codes: AuthorizationCodes; tokens: AccessTokens; sessions: Sessions; clients: ClientDirectory },
  req: IssueCodeRequest,
): Promise<{ code: string; expiresIn: number }> {
  const violations: Violation[] = [];
  if (!req.clientId) violations.push({ field: "client_id", code: "required" });
  if (!req.redirectUri) violations.push({ field: "redirect_uri", code: "required" });
  else if (req.redirectUri.length > MAX_URI_LENGTH) violations.push({ field: "redirect_uri", code: "too_long" });
  const scopes = req.scope === "" ? [] : parseScope(req.scope);
  if (!scopes) violations.push({ field: "scope", code: "invalid_format" });
  if (!S256_CHALLENGE.test(req.codeChallenge)) violations.push({ field: "code_challenge", code: req.codeChallenge ? "invalid_format" : "required" });
  if (req.codeChallengeMethod !== "S256") violations.push({ field: "code_challenge_method", code: "invalid_value", description: "only S256" });
  if (req.nonce.length > MAX_NONCE_LENGTH) violations.push({ field: "nonce", code: "too_long" });
  if (!req.loginAccessToken) violations.push({ field: "login_access_token", code: "required" });
  if (violations.length || !scopes) throw validationError(violations);

  const login = await deps.tokens.verify(req.loginAccessToken);
  if (!login || !login.sid || login.sub === login.client_id || !(await loginServes(deps.clients, login.client_id, req.clientId))) {
    throw domainError("INVALID_GRANT", "the login token is invalid, expired, or not a login of this client");
  }
  await deps.sessions.end(login.sid);
  const code = await deps.codes.issue({
    clientId: req.clientId,
    userId: login.sub,
    redirectUri: req.redirectUri,
    scope: scopes.join(" "),
    codeChallenge: req.codeChallenge,
    ...(req.nonce ? { nonce: req.nonce } : {}),
    authTime: login.iat,
  });
  return { code, expiresIn: deps.codes.ttlSeconds };
}

/**
 * Whether a login of application `loginClientId` may give a code to
 * `clientId`: the application itself, or one of its entry points acting as
 * a public client (the hosted login always signs in as the application).
 */
async function loginServes(clients: ClientDirectory, loginClientId: string, clientId: string): Promise<boolean> {
  if (loginClientId === clientId) return true;
  return (await clients.publicClient(clientId))?.applicationId === loginClientId;
}
