import type { FastifyReply, FastifyRequest } from "fastify";
import { pickLocale, type Reason, type Violation } from "@gatehouse/errors";
import { sendError } from "../../http/envelope.ts";
import { sendOAuthError } from "../../http/oauth-error.ts";

/** The OAuth endpoints answer RFC 6749 errors (contract section 2), whatever the route. */
export const isOAuthPath = (url: string | undefined) => url !== undefined && url.startsWith("/oauth2/");

/**
 * A client error found at the edge (URL, body text, framework): the contract
 * envelope, or `{error: "invalid_request", error_description}` on /oauth2/*.
 */
export function sendEdgeError(
  req: FastifyRequest,
  reply: FastifyReply,
  reason: Reason,
  opts: { details: string; violations?: Violation[]; status?: number },
) {
  // Errors raised before the request-context hook ran (a URL the router refused) start the clock here.
  if (!req.startedAt) {
    req.startedAt = performance.now();
    req.locale = pickLocale(req.headers["accept-language"]);
  }
  if (isOAuthPath(req.url)) {
    const described = opts.violations?.length
      ? `${opts.details}: ${opts.violations.map((v) => v.field || "(body)").join(", ")}`
      : opts.details;
    return sendOAuthError(reply, "INVALID_REQUEST", described);
  }
  return sendError(reply, reason, opts);
}
