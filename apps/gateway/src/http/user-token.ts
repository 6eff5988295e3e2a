import type { FastifyRequest } from "fastify";
import type { Principal } from "@gatehouse/rpc";
import type { GatewayDeps } from "../deps.ts";
import { bearerToken } from "./bearer.ts";

/**
 * The user behind an ACCESS_TOKEN (a login session or, later, an
 * authorization code grant), or undefined: the caller answers 401. An
 * application's own token (subject = client) is not a user's.
 */
export async function userPrincipal(req: FastifyRequest, deps: GatewayDeps): Promise<Principal | undefined> {
  const token = bearerToken(req);
  if (!token || !deps.verifyAccessToken) return undefined;
  const p = await deps.verifyAccessToken(token);
  if (!p || !p.clientId || !p.subject || p.subject === p.clientId) return undefined;
  return p;
}
