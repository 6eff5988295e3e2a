import type { FastifyPluginAsync } from "fastify";

// Gatehouse's mark (the console's favicon too): the hosted pages link it, and
// browsers that ask /favicon.ico by themselves get it instead of a 404 in their
// console. Same-origin, so the hosted pages' CSP (img-src 'self') allows it.
const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1f4e79"/><path d="M9 24V12l7-5 7 5v12h-5v-6h-4v6z" fill="#fff"/></svg>';

/** GET /favicon.svg and /favicon.ico: the icon, cached for a day. */
export const faviconRoutes: FastifyPluginAsync = async (app) => {
  for (const url of ["/favicon.svg", "/favicon.ico"]) {
    app.get(url, { schema: { hide: true }, logLevel: "warn" }, async (_req, reply) =>
      reply.type("image/svg+xml").header("cache-control", "public, max-age=86400").send(FAVICON_SVG),
    );
  }
};
