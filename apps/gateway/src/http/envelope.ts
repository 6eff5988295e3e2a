import type { FastifyReply, FastifyRequest } from "fastify";
import { errorEnvelope, type Reason, type Violation } from "@gatehouse/errors";
import { defaultChallenge } from "./bearer-challenge.ts";

/** Whole milliseconds since the request arrived (contract section 2 `result.elapsed`). */
export function elapsed(req: FastifyRequest): number {
  return Math.max(0, Math.round(performance.now() - req.startedAt));
}

/**
 * `{content, result: {status, elapsed}}`, never stored by caches: envelopes
 * carry users' data, sessions, secrets or recovery codes (errors are no-store too).
 */
export function sendContent(reply: FastifyReply, status: number, content: unknown) {
  return reply
    .code(status)
    .header("cache-control", "no-store")
    .send({ content, result: { status, elapsed: elapsed(reply.request) } });
}

/** The contract section 2 error envelope in the request's locale; `sc=true` keeps one item. */
export function sendError(
  reply: FastifyReply,
  reason: Reason,
  opts: { violations?: Violation[]; details?: string; status?: number; subcode?: number; content?: unknown } = {},
) {
  const req = reply.request;
  const { content, ...rest } = opts;
  const body = errorEnvelope({
    reason,
    locale: req.locale,
    elapsed: elapsed(req),
    singleItem: req.singleError,
    ...rest,
  });
  // Some error answers carry content too (412: the URL that resends the code).
  if (content !== undefined) Object.assign(body, { content });
  // Every 503 (Redis or a service unreachable) tells the client when to try again.
  if (body.result.status === 503 && !reply.hasHeader("retry-after")) reply.header("retry-after", "1");
  if (req.bearerProtected && !reply.hasHeader("www-authenticate")) {
    const challenge = defaultChallenge(body.result.status, reason);
    if (challenge) reply.header("www-authenticate", challenge);
  }
  return reply.code(body.result.status).header("cache-control", "no-store").send(body);
}
