import type { FastifyRequest } from "fastify";
import { USERS_ACCESS_SCOPE, type Principal } from "@gatehouse/rpc";
import type { GatewayDeps } from "../deps.ts";
import { bearerToken } from "./bearer.ts";


/**
 * The application behind an APP_TOKEN (client_credentials of an application
 * with the users:access scope), or undefined: the caller answers 401.
 */
export async function appPrincipal(req: FastifyRequest, deps: GatewayDeps): Promise<Principal | undefined> {
  const token = bearerToken(req);
  if (!token || !deps.verifyAccessToken) return undefined;
  const p = await deps.verifyAccessToken(token);
  if (!p || !p.clientId || p.subject !== p.clientId || !p.scopes.has(USERS_ACCESS_SCOPE)) return undefined;
  return p;
}

/** What the users service needs to know about the request's origin. */
export function callerOf(req: FastifyRequest, clientId: string, sourceId: string) {
  return {
    clientId,
    entrypointId: String(req.headers.from ?? ""),
    sourceId,
    clientAddress: req.ip,
    locale: req.locale,
  };
}
