import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { validationError, type Violation } from "@gatehouse/errors";
import { parseScope } from "../scopes/scope.ts";
import type { AuthorizationCodes } from "./authorization-codes.ts";

// RFC 7636 section 4.2: S256 challenges are the 43-character base64url SHA-256 digest.
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_URI_LENGTH = 2048;
const MAX_NONCE_LENGTH = 512;
const MAX_ID_LENGTH = 256;
// A login the users service has just finished: its clock may be a little ahead of ours.
const CLOCK_SKEW_SECONDS = 60;

export interface IssueCodeRequest {
  userId: string;
  /** When the user authenticated. */
  authTime?: Timestamp;
  clientId: string;
  redirectUri: string;
  scope: string;
  codeChallenge: string;
  codeChallengeMethod: string;
  nonce: string;
  /** An operator person's email (console sign-in); empty for everyone else. */
  operatorEmail?: string;
}

const idViolations = (field: string, value: string): Violation[] =>
  !value
    ? [{ field, code: "required" }]
    : value.length > MAX_ID_LENGTH || /[\s\p{Cc}]/u.test(value)
      ? [{ field, code: "invalid_format" }]
      : [];

/** auth_time in seconds: required, and not in the future (beyond the skew). */
function authTimeOf(t: Timestamp | undefined, now: number, out: Violation[]): number {
  if (!t || t.seconds <= 0n) {
    out.push({ field: "auth_time", code: "required" });
    return 0;
  }
  const seconds = Math.floor(timestampDate(t).getTime() / 1000);
  if (seconds > now + CLOCK_SKEW_SECONDS)
    out.push({ field: "auth_time", code: "invalid_value", description: "in the future" });
  return seconds;
}

/**
 * The users service finished a hosted login: bind a single-use code to that
 * user, when they authenticated, and the authorization request. No session
 * exists yet: redeeming the code opens the one the client will hold.
 */
export async function issueAuthorizationCode(
  deps: { codes: AuthorizationCodes; now?: () => number },
  req: IssueCodeRequest,
): Promise<{ code: string; expiresIn: number }> {
  const now = Math.floor((deps.now ?? Date.now)() / 1000);
  const violations: Violation[] = [...idViolations("user_id", req.userId), ...idViolations("client_id", req.clientId)];
  const authTime = authTimeOf(req.authTime, now, violations);
  if (!req.redirectUri) violations.push({ field: "redirect_uri", code: "required" });
  else if (req.redirectUri.length > MAX_URI_LENGTH) violations.push({ field: "redirect_uri", code: "too_long" });
  const scopes = req.scope === "" ? [] : parseScope(req.scope);
  if (!scopes) violations.push({ field: "scope", code: "invalid_format" });
  if (!S256_CHALLENGE.test(req.codeChallenge))
    violations.push({ field: "code_challenge", code: req.codeChallenge ? "invalid_format" : "required" });
  if (req.codeChallengeMethod !== "S256")
    violations.push({ field: "code_challenge_method", code: "invalid_value", description: "only S256" });
  if (req.nonce.length > MAX_NONCE_LENGTH) violations.push({ field: "nonce", code: "too_long" });
  if ((req.operatorEmail?.length ?? 0) > MAX_ID_LENGTH) violations.push({ field: "operator_email", code: "too_long" });
  if (violations.length || !scopes) throw validationError(violations);

  const code = await deps.codes.issue({
    clientId: req.clientId,
    userId: req.userId,
    redirectUri: req.redirectUri,
    scope: scopes.join(" "),
    codeChallenge: req.codeChallenge,
    ...(req.nonce ? { nonce: req.nonce } : {}),
    ...(req.operatorEmail ? { operatorEmail: req.operatorEmail } : {}),
    authTime,
  });
  return { code, expiresIn: deps.codes.ttlSeconds };
}
