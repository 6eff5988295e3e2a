import type { FastifyReply, FastifyRequest } from "fastify";
import { sendError } from "./envelope.ts";

/**
 * True when an Accept header admits application/json: absent, `*\/*`,
 * `application/*`, `application/json` or a `+json` type, unless its q is 0.
 */
export function acceptsJson(header: string | undefined): boolean {
  if (!header || !header.trim()) return true;
  return header.split(",").some((range) => {
    const [type, ...params] = range
      .trim()
      .toLowerCase()
      .split(";")
      .map((p) => p.trim());
    const q = params.find((p) => p.startsWith("q="));
    if (q && Number(q.slice(2)) === 0) return false;
    return (
      type === "*/*" ||
      type === "application/*" ||
      type === "application/json" ||
      (type?.startsWith("application/") && type.endsWith("+json"))
    );
  });
}

/**
 * onRequest hook of the JSON user operations: the spec requires `Accept:
 * application/json`. Hosted pages (GETs and their HTML form posts) answer HTML.
 */
export function requireJsonAccept(req: FastifyRequest, reply: FastifyReply, done: () => void) {
  const formPost = (req.headers["content-type"] ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded");
  if (req.method === "GET" || req.method === "HEAD" || formPost || acceptsJson(req.headers.accept)) return done();
  return sendError(reply, "NOT_ACCEPTABLE", { details: `Accept: ${req.headers.accept}` });
}
