import type { FastifyPluginAsync } from "fastify";
import { altchaAsset } from "../hosted/index.ts";
import { ALTCHA_STATIC_PATH } from "../hosted/paths.ts";

/**
 * GET /hosted/static/altcha/{file}: the ALTCHA widget's files for the hosted
 * pages' CSP (`script-src 'self'`, `worker-src 'self'`), cached for a day;
 * any other name is a 404.
 */
export const hostedStaticRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { file: string } }>(
    `${ALTCHA_STATIC_PATH}/:file`,
    { schema: { hide: true }, logLevel: "warn" },
    async (req, reply) => {
      const asset = await altchaAsset(req.params.file);
      if (!asset) return reply.callNotFound();
      return reply
        .type(asset.type)
        .headers({ "cache-control": "public, max-age=86400", "x-content-type-options": "nosniff" })
        .send(asset.body);
    },
  );
};
