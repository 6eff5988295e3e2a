import type { FastifyReply, FastifyRequest } from "fastify";
import { sendOAuthError } from "../http/oauth-error.ts";
import { presentedClient, type PresentedClient } from "./client-auth.ts";
import { singleParams } from "./form.ts";

export interface OAuthRequest {
  params: Record<string, string>;
  client: PresentedClient;
  usedBasic: boolean;
}

/**
 * Shared front half of the form-encoded OAuth endpoints: content type,
 * single-valued parameters, client authentication. Answers the error itself
 * and returns undefined when the request cannot go on.
 */
export function oauthRequest(req: FastifyRequest, reply: FastifyReply): OAuthRequest | undefined {
  const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    sendOAuthError(reply, "INVALID_REQUEST", "the body must be application/x-www-form-urlencoded");
    return undefined;
  }
  const single = singleParams(req.body);
  if ("repeated" in single) {
    sendOAuthError(reply, "INVALID_REQUEST", `parameter ${single.repeated} is repeated`);
    return undefined;
  }
  const auth = presentedClient(req, single.params);
  if (!auth.ok) {
    sendOAuthError(reply, auth.reason, auth.description, auth.usedBasic);
    return undefined;
  }
  const { client_id: _id, client_secret: _secret, ...params } = single.params;
  return { params, client: auth.client, usedBasic: auth.usedBasic };
}
