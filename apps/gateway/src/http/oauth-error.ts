import type { FastifyReply } from "fastify";
import { errorFacts, errorTable, isTransient, type Reason } from "@gatehouse/errors";

const OAUTH_REASONS = new Set<Reason>([
  "INVALID_REQUEST",
  "INVALID_CLIENT",
  "INVALID_GRANT",
  "UNAUTHORIZED_CLIENT",
  "UNSUPPORTED_GRANT_TYPE",
  "INVALID_SCOPE",
  "UNSUPPORTED_TOKEN_TYPE",
  // RFC 8628 section 3.5 (device code polls).
  "AUTHORIZATION_PENDING",
  "SLOW_DOWN",
  "ACCESS_DENIED",
  "EXPIRED_TOKEN",
]);

/**
 * RFC 6749 section 5.2: `{error, error_description}`, no-store; invalid_client
 * is a 401, with WWW-Authenticate when Basic authentication was tried.
 */
export function sendOAuthError(
  reply: FastifyReply,
  reason: Reason,
  description: string,
  usedBasic = false,
  httpStatus?: number,
) {
  const status = httpStatus ?? (reason === "INVALID_CLIENT" ? 401 : (errorTable[reason]?.http ?? 400));
  // The challenge answers a failed Basic authentication (RFC 6749 section 5.2 MUST); clients
  // that authenticated in the body get the plain 401 JSON error.
  if (reason === "INVALID_CLIENT" && usedBasic)
    reply.header("www-authenticate", 'Basic realm="gatehouse", error="invalid_client"');
  return reply
    .code(status)
    .headers({ "cache-control": "no-store", pragma: "no-cache" })
    .send({ error: reason.toLowerCase(), error_description: description });
}

/** An RPC failure of the auth service as an OAuth error (anything else is a server_error). */
export function sendOAuthRpcError(reply: FastifyReply, err: unknown, usedBasic: boolean) {
  const facts = errorFacts(err);
  if (OAUTH_REASONS.has(facts.reason)) return sendOAuthError(reply, facts.reason, facts.message, usedBasic);
  // Input a service refused as malformed (text its database cannot store) is the client's error.
  if (facts.reason === "MALFORMED_REQUEST" || facts.reason === "VALIDATION_FAILED")
    return sendOAuthError(reply, "INVALID_REQUEST", facts.message, usedBasic);
  if (isTransient(facts.reason)) {
    return reply
      .code(503)
      .headers({ "cache-control": "no-store", "retry-after": "1" })
      .send({ error: "temporarily_unavailable", error_description: "the authorization server is unavailable" });
  }
  reply.request.log.error({ err }, "token endpoint failure");
  return reply
    .code(500)
    .header("cache-control", "no-store")
    .send({ error: "server_error", error_description: "unexpected error" });
}
