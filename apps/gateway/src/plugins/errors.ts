import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { ConnectError } from "@connectrpc/connect";
import { errorFacts, type Reason, type Violation } from "@gatehouse/errors";
import { MfaRequiredSchema } from "@gatehouse/proto";
import { bodyViolations } from "../http/body-checks.ts";
import { sendError } from "../http/envelope.ts";
import { mfaContent } from "../http/login-json.ts";
import { sendOAuthError, sendOAuthRpcError } from "../http/oauth-error.ts";
import { oauthAllow, sendMethodNotAllowed } from "../oauth/methods.ts";
import { isOAuthPath } from "./edge/respond.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Route answers RFC 6749 errors instead of the contract envelope. */
    oauth?: boolean;
  }
}

type GatewayError = FastifyError & { violations?: Violation[] };

// Fastify's own client errors (parsing, limits) by code.
const fastifyReasons: Record<string, Reason> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "UNSUPPORTED_MEDIA_TYPE",
  FST_ERR_CTP_BODY_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  FST_ERR_CTP_EMPTY_JSON_BODY: "MALFORMED_REQUEST",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "MALFORMED_REQUEST",
};

interface Classified {
  reason: Reason;
  status?: number;
  violations?: Violation[];
  details?: string;
  /** `Retry-After` seconds (a throttle's `retry_after`). */
  retryAfter?: string;
  /** What the answer carries besides the envelope (a step-up's `content.mfa`). */
  content?: unknown;
}

/** One item per field and code: a route's body check may repeat what the schema found. */
function merged(a: Violation[], b: Violation[]): Violation[] {
  const seen = new Set(a.map((v) => `${v.field}\0${v.code}`));
  return [...a, ...b.filter((v) => !seen.has(`${v.field}\0${v.code}`))];
}

/** What an error's answer carries besides the envelope, from its typed details: a step-up's 428 carries MfaRequired. */
function errorContent(err: ConnectError): Record<string, unknown> | undefined {
  const mfa = err.findDetails(MfaRequiredSchema)[0];
  return mfa ? { mfa: mfaContent(mfa) } : undefined;
}

function classify(err: GatewayError, req: FastifyRequest): Classified {
  if (err.violations)
    return {
      reason: "VALIDATION_FAILED",
      violations: merged(err.violations, err.validationContext === "body" ? bodyViolations(req) : []),
    };
  if (err.code && fastifyReasons[err.code]) return { reason: fastifyReasons[err.code]!, details: err.message };
  if (err instanceof ConnectError) {
    const f = errorFacts(err);
    return {
      reason: f.reason,
      violations: f.violations,
      // With field violations the details list them, as for the gateway's own validation.
      details: f.reason === "INTERNAL" || f.violations.length ? undefined : f.message,
      retryAfter: /^\d{1,9}$/.test(f.metadata.retry_after ?? "") ? f.metadata.retry_after : undefined,
      content: errorContent(err),
    };
  }
  // JSON syntax errors, __proto__ keys, bad headers: any 4xx Fastify raised is the client's.
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return { reason: "MALFORMED_REQUEST", details: err.message, status: err.statusCode === 404 ? 400 : err.statusCode };
  }
  return { reason: "INTERNAL" };
}

/** One error path for the gateway: the contract envelope, or RFC 6749 on OAuth routes. */
export const errorHandling = fp(async (app) => {
  app.setErrorHandler((err: GatewayError, req: FastifyRequest, reply: FastifyReply) => {
    const c = classify(err, req);
    if (c.reason === "INTERNAL") req.log.error({ err }, "unhandled error");
    if (req.routeOptions.config?.oauth || isOAuthPath(req.url)) {
      if (err instanceof ConnectError) return sendOAuthRpcError(reply, err, false);
      if (c.reason === "INTERNAL")
        return reply.code(500).send({ error: "server_error", error_description: "unexpected error" });
      // An oversized body keeps its 413 (contract section 10), in the OAuth form.
      return sendOAuthError(
        reply,
        "INVALID_REQUEST",
        err.message,
        false,
        c.reason === "PAYLOAD_TOO_LARGE" ? 413 : undefined,
      );
    }
    if (c.retryAfter) reply.header("retry-after", c.retryAfter);
    return sendError(reply, c.reason, {
      violations: c.violations,
      details: c.details,
      status: c.status,
      content: c.content,
    });
  });
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split("?")[0]!;
    // A method Fastify routes nowhere (TRACE, PROPFIND) on an OAuth endpoint is still a 405 with Allow.
    const allow = oauthAllow(path);
    if (allow) return sendMethodNotAllowed(reply, req.method, allow);
    const details = `${req.method} ${path}`;
    if (isOAuthPath(req.url))
      return sendOAuthError(reply, "INVALID_REQUEST", `there is nothing at ${details}`, false, 404);
    return sendError(reply, "ROUTE_NOT_FOUND", { details });
  });
});
