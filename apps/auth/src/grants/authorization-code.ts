import { domainError } from "@gatehouse/errors";
import { constantTimeEqual, sha256Base64url } from "@gatehouse/secrets";
import type { GrantContext, GrantParameters, TokenResponse } from "./grant.ts";

/**
 * RFC 6749 section 4.1.3 with PKCE (RFC 7636, S256 required): a client
 * trades the code of a hosted login for the user's tokens. The code is
 * single use and bound to the client, the exact redirect_uri and the
 * challenge. A code presented again is refused and ends the session its
 * first redemption opened (access and refresh tokens). Every code-flow
 * access token carries the challenge (CHALLENGE_CODE_TOKEN); a refresh
 * token always comes with it, and an ID token when `openid` was granted.
 */
export const grantType = "authorization_code";

export const parameters: GrantParameters = {
  required: ["code", "redirect_uri"],
  optional: ["code_verifier"],
  forbidden: [],
};

/** PKCE is required of every client, so public clients (method none) use this grant too. */
export const publicClients = true;

// RFC 7636 section 4.1: code_verifier = 43*128unreserved.
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
const invalidGrant = (why: string) => domainError("INVALID_GRANT", why);

export async function handler({
  client,
  params,
  tokens,
  sessions,
  codes,
  idTokens,
  logger,
}: GrantContext): Promise<TokenResponse> {
  const redemption = await codes.redeem(params.code ?? "", client.clientId);
  if ("replayOf" in redemption) {
    logger?.warn({ clientId: client.clientId, sid: redemption.replayOf }, "authorization code replay: session ended");
    await sessions.endFamily(redemption.replayOf);
    throw invalidGrant(
      "authorization code was already used (or spent by a failed exchange); any tokens issued from it have been revoked",
    );
  }
  // The code is spent from here on, whatever the outcome (no second try with another verifier).
  const { grant, sid, issuedAt } = redemption;
  if (params.redirect_uri !== grant.redirectUri)
    throw invalidGrant("redirect_uri does not match the authorization request");
  const verifier = params.code_verifier;
  if (!grant.codeChallenge) {
    // Unreachable while codes require a challenge; a verifier must never stand in for a missing one.
    throw invalidGrant(
      verifier ? "code_verifier sent but the authorization request had no code_challenge" : "PKCE is required",
    );
  }
  if (verifier === undefined) throw invalidGrant("code_verifier is required (PKCE)");
  if (!VERIFIER.test(verifier))
    throw domainError("INVALID_REQUEST", "code_verifier must be 43-128 unreserved characters (RFC 7636 section 4.1)");
  if (!constantTimeEqual(sha256Base64url(verifier), grant.codeChallenge))
    throw invalidGrant("code_verifier does not match the code_challenge");

  // Every session of the user was ended (a lock, log out everywhere) after this login: its code goes with them.
  if (await sessions.userEndedAfter(grant.userId, issuedAt))
    throw invalidGrant("the user's sessions were ended after this code was issued");

  const scopes = grant.scope ? grant.scope.split(" ") : [];
  const { session, refreshToken } = await sessions.open({
    sid,
    userId: grant.userId,
    clientId: grant.clientId,
    scope: grant.scope,
    codeChallenge: grant.codeChallenge,
    authTime: grant.authTime,
    applicationId: client.applicationId,
    ...(grant.operatorEmail ? { operatorEmail: grant.operatorEmail } : {}),
  });
  const issued = await tokens.issue({
    clientId: session.clientId,
    applicationId: client.applicationId,
    subject: session.userId,
    scopes,
    sid: session.sid,
    codeChallenge: grant.codeChallenge,
    ...(grant.operatorEmail ? { email: grant.operatorEmail } : {}),
  });
  const response: TokenResponse = {
    accessToken: issued.token,
    tokenType: "Bearer",
    expiresIn: issued.expiresIn,
    scope: issued.claims.scope,
    refreshToken,
  };
  if (scopes.includes("openid")) {
    response.idToken = await idTokens.issue({
      clientId: session.clientId,
      userId: session.userId,
      sid: session.sid,
      authTime: grant.authTime,
      ...(grant.nonce ? { nonce: grant.nonce } : {}),
      accessToken: issued.token,
    });
  }
  return response;
}
