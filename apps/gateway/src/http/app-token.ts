import type { FastifyRequest } from "fastify";
import { USERS_ACCESS_SCOPE, type Principal } from "@gatehouse/rpc";
import type { BearerRule } from "./bearer-guard.ts";

/** An application's APP_TOKEN: its own client_credentials token with the users:access scope. */
export const isAppToken = (p: Principal) =>
  Boolean(p.clientId && p.subject === p.clientId && p.scopes.has(USERS_ACCESS_SCOPE));

/** Bearer rule of the APP_TOKEN routes: anything else (a user's token, an operator's) is not a valid token here (401). */
export const appToken: BearerRule = (p) =>
  isAppToken(p) || {
    error: "invalid_token",
    description: "an APP_TOKEN (client_credentials of the application, scope users:access) is required",
  };

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
