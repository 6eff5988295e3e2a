import type { FastifyInstance, HTTPMethods } from "fastify";

const METHODS: HTTPMethods[] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

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
  const hidden = { config: { oauth: true }, schema: { hide: true } };
  app.options(path, hidden, (_req, reply) => reply.code(204).header("allow", header).send());
  app.route({
    ...hidden,
    method: METHODS.filter((m) => !allow.includes(m)),
    url: path,
    handler: (req, reply) =>
      reply
        .code(405)
        .headers({ allow: header, "cache-control": "no-store" })
        .send({ error: "invalid_request", error_description: `${req.method} is not allowed here; use ${allowed.join(" or ")}` }),
  });
}
