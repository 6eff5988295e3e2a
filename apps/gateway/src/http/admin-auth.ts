import type { FastifyReply, FastifyRequest } from "fastify";
import { CLIENT_ADDRESS_HEADER } from "@gatehouse/admin";
import type { Principal } from "@gatehouse/rpc";
import type { GatewayDeps } from "../deps.ts";
import { bearerToken } from "./bearer.ts";
import { sendError } from "./envelope.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The operator behind an /admin/v1 request (set by requireOperator). */
    operator?: { token: string; principal: Principal };
  }
}

/** Reads need one of these scopes, changes one of the write scopes (contract section 6). */
export const ADMIN_READ_SCOPES = ["admin:read", "admin"];
export const ADMIN_WRITE_SCOPES = ["admin:write", "admin"];

// A local helper until the gateway's shared RFC 6750 challenges (issue 10) arrive.
const challenge = (error?: string, scope?: string) =>
  ["Bearer realm=\"gatehouse\"", error ? `error="${error}"` : "", scope ? `scope="${scope}"` : ""].filter(Boolean).join(", ");

/**
 * onRequest hook of /admin/v1: an operator's access token (an operator
 * client's client_credentials token, or an operator person's) with the scope
 * the method needs: GET and HEAD admin:read, anything else admin:write,
 * `admin` both. 401 without a valid token, 403 without the scope, decided
 * before the body is read. The services check the forwarded token again.
 */
export function requireOperator(deps: GatewayDeps) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(req);
    const principal = token && deps.verifyAccessToken ? await deps.verifyAccessToken(token) : undefined;
    if (!token || !principal) {
      reply.header("www-authenticate", challenge(token ? "invalid_token" : undefined));
      return sendError(reply, "UNAUTHENTICATED", { details: "Authorization: Bearer <operator access token> required" });
    }
    const needed = req.method === "GET" || req.method === "HEAD" ? ADMIN_READ_SCOPES : ADMIN_WRITE_SCOPES;
    if (!needed.some((s) => principal.scopes.has(s))) {
      reply.header("www-authenticate", challenge("insufficient_scope", needed.join(" ")));
      return sendError(reply, "INSUFFICIENT_SCOPE", { details: `requires one of: ${needed.join(", ")}` });
    }
    req.operator = { token, principal };
  };
}

/** Call options that forward the operator's token and the client address (for the audit) to a service. */
export function asOperator(req: FastifyRequest) {
  const token = req.operator?.token ?? "";
  return { headers: { authorization: `Bearer ${token}`, [CLIENT_ADDRESS_HEADER]: req.ip } };
}

/**
 * onRequest hook of body-less actions (lock, rotate, DELETE…): a declared
 * JSON content type with an empty body is not a malformed request there.
 */
export async function noBody(req: FastifyRequest) {
  const length = req.headers["content-length"];
  if ((length === undefined || length === "0") && req.headers["transfer-encoding"] === undefined) delete req.headers["content-type"];
}
