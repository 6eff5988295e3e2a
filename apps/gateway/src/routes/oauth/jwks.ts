import type { FastifyPluginAsync } from "fastify";
import type { GatewayDeps } from "../../deps.ts";
import { cached } from "../../http/cache.ts";
import { otherMethods } from "../../oauth/methods.ts";

/**
 * GET /oauth2/jwks: the public signing keys (RFC 7517 JWK Set): the key in
 * use, the next one (published before it signs) and rotated-out keys until
 * their tokens expire.
 */
export const jwksRoute: FastifyPluginAsync<GatewayDeps> = async (app, deps) => {
  const jwks = cached(10_000, async () => (await deps.auth.getJwks({})).jwksJson);
  app.get(
    "/oauth2/jwks",
    { config: { oauth: true }, schema: { summary: "JWK Set of the token signing keys", tags: ["oauth"] } },
    async (_req, reply) =>
      reply
        .type("application/jwk-set+json")
        .header("cache-control", "public, max-age=60")
        .send(await jwks()),
  );
  otherMethods(app, "/oauth2/jwks", ["GET"]);
};
