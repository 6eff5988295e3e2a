import type { FastifyInstance, FastifyReply, HTTPMethods } from "fastify";

const METHODS: HTTPMethods[] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

// The Allow header of every OAuth endpoint, for the methods Fastify does not
// route at all (TRACE, PROPFIND, ...): the not-found handler answers them 405 too.
const allowByPath = new Map<string, string>();

/** The Allow header of an OAuth endpoint's path, when it is one. */
export const oauthAllow = (path: string): string | undefined => allowByPath.get(path);

/** The 405 of an OAuth endpoint (RFC 9110 section 15.5.6), in the OAuth error form. */
export function sendMethodNotAllowed(reply: FastifyReply, method: string, allow: string) {
  const allowed = allow.split(", ").filter((m) => m === "GET" || m === "POST");
  return reply
    .code(405)
    .headers({ allow, "cache-control": "no-store" })
    .send({
      error: "invalid_request",
      error_description: `${method} is not allowed here; use ${allowed.join(" or ")}`,
    });
}

/**
 * The other methods of an OAuth endpoint: 405 with Allow (RFC 9110 section
 * 15.5.6) in the OAuth error form (RFC 6749 section 5.2), never the JSON
 * envelope's 404. OPTIONS answers 204 with Allow (a CORS preflight from a
 * relying party's origin is answered before it, where CORS applies). GET
 * implies HEAD.
 */
export function otherMethods(app: FastifyInstance, path: string, allowed: ("GET" | "POST")[]) {
  const allow = [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : []), "OPTIONS"];
  const header = allow.join(", ");
  allowByPath.set(path, header);
  const hidden = { config: { oauth: true }, schema: { hide: true } };
  app.options(path, hidden, (_req, reply) => reply.code(204).header("allow", header).send());
  app.route({
    ...hidden,
    method: METHODS.filter((m) => !allow.includes(m)),
    url: path,
    handler: (req, reply) => sendMethodNotAllowed(reply, req.method, header),
  });
}
