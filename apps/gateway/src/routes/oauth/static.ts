import type { FastifyPluginAsync } from "fastify";
import Type from "typebox";
import { sendError } from "../../http/envelope.ts";
import { staticScript, STATIC_PATH } from "../../hosted/index.ts";

/**
 * GET {auth_url}/oauth2/static/{name}: the hosted pages' scripts (passkeys:
 * @simplewebauthn/browser's bundle and ours), from this origin so the pages'
 * CSP allows them with `script-src 'self'`. Cached an hour; a release that
 * changes one is picked up within it.
 */
export const staticRoutes: FastifyPluginAsync = async (app) => {
  app.get(
    `${STATIC_PATH}/:name`,
    { schema: { hide: true, params: Type.Object({ name: Type.String({ maxLength: 64 }) }) }, logLevel: "warn" },
    async (req, reply) => {
      const body = staticScript((req.params as { name: string }).name);
      if (body === undefined) return sendError(reply, "ROUTE_NOT_FOUND");
      return reply
        .type("text/javascript; charset=utf-8")
        .headers({ "cache-control": "public, max-age=3600", "x-content-type-options": "nosniff" })
        .send(body);
    },
  );
};
