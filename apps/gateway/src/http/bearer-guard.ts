import type { FastifyReply, FastifyRequest, onRequestHookHandler } from "fastify";
import type { AccessTokenVerifier, Principal } from "@gatehouse/rpc";
import { bearerToken } from "./bearer.ts";
import { bearerChallenge, type BearerError } from "./bearer-challenge.ts";
import { sendError } from "./envelope.ts";

/** What a route asks of a verified token: fine, or the RFC 6750 error with what to tell the caller. */
export type BearerVerdict = true | { error: BearerError; description: string; scope?: string };
export type BearerRule = (principal: Principal, req: FastifyRequest) => BearerVerdict;

/** A token with at least one of `scopes` (an operator's client_credentials token, typically); else 403 insufficient_scope. */
export const anyScope =
  (...scopes: string[]): BearerRule =>
  (p) =>
    scopes.some((s) => p.scopes.has(s)) || {
      error: "insufficient_scope",
      description: `requires one of the scopes: ${scopes.join(" ")}`,
      scope: scopes.join(" "),
    };

/**
 * onRequest hook of a bearer-protected route: the token is verified and the
 * route's rule applied before the body is parsed or validated (contract
 * section 9), so no token and a bad body is a 401, never a 400. A missing or
 * invalid token is 401 `invalid_token`, a token without the needed scope
 * 403 `insufficient_scope`; either carries the WWW-Authenticate challenge.
 * The accepted principal is `req.principal`. Every later 401/403 of the
 * route (sendError) carries a challenge too.
 */
export function requireBearer(verify: AccessTokenVerifier | undefined, rule: BearerRule): onRequestHookHandler {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    req.bearerProtected = true;
    const token = bearerToken(req);
    const principal = token && verify ? await verify(token) : undefined;
    if (!principal) {
      const description = token
        ? "the access token is invalid, expired or revoked"
        : "an access token is required (Authorization: Bearer)";
      return refuse(reply, { error: "invalid_token", description });
    }
    const verdict = rule(principal, req);
    if (verdict !== true) return refuse(reply, verdict);
    req.principal = principal;
  };
}

/** Whether the request announced a body (it is still unread: the guard runs before the body). */
const hasBody = (req: FastifyRequest) =>
  req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;

function refuse(reply: FastifyReply, v: Exclude<BearerVerdict, true>) {
  reply.header("www-authenticate", bearerChallenge(v.error, v.description, v.scope));
  // Answered before its body was read: the connection closes after the answer (RFC 9112 section 9.6),
  // so a body still arriving (or stalling) cannot hold it, nor be read as the next request.
  if (hasBody(reply.request)) reply.header("connection", "close");
  return sendError(reply, v.error === "insufficient_scope" ? "INSUFFICIENT_SCOPE" : "UNAUTHENTICATED", {
    details: v.description,
  });
}
