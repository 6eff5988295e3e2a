import { existsSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { consoleNotBuiltPage } from "../hosted/index.ts";

/**
 * The console's CSP: its own scripts and styles only (Vite emits no inline
 * script), API calls to this origin and the configured public origins (the
 * token endpoint may live on auth_url), never framed.
 */
export function consoleCsp(origins: string[]): string {
  const connect = ["'self'", ...new Set(origins.map((u) => new URL(u).origin))].join(" ");
  return [
    "default-src 'none'",
    "base-uri 'none'",
    `connect-src ${connect}`,
    "font-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "img-src 'self' data:",
    "manifest-src 'self'",
    "object-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
  ].join("; ");
}

const HASHED = /^assets\/[\w.-]+-[\w-]{8,}\.\w+$/;

/**
 * GET /console and /console/*: the console's static build (`dir`, from
 * apps/console/dist). Hashed assets are cached for a year; every other path
 * answers index.html (the single-page app routes itself), never cached. Without
 * a build, a page says how to make one (503).
 */
export const consoleRoutes: FastifyPluginAsync<{ dir?: string; origins: string[] }> = async (app, opts) => {
  const csp = consoleCsp(opts.origins);
  const dir = opts.dir;
  if (dir) await app.register(fastifyStatic, { root: dir, serve: false, index: false, dotfiles: "deny" });
  const built = () => (dir ? existsSync(join(dir, "index.html")) : false);

  const page = (req: FastifyRequest, reply: FastifyReply) => {
    if (!built()) return consoleNotBuiltPage(reply, req.locale);
    reply.headers({
      "content-security-policy": csp,
      "cache-control": "no-store",
      "x-frame-options": "DENY",
      "referrer-policy": "no-referrer",
    });
    return reply.sendFile("index.html", { cacheControl: false });
  };

  const schema = { hide: true };
  app.get("/console", { schema }, page);
  app.get("/console/*", { schema }, (req, reply) => {
    const path = (req.params as { "*": string })["*"];
    if (built() && HASHED.test(path) && existsSync(join(dir!, path))) {
      reply.header("content-security-policy", csp);
      return reply.sendFile(path, { maxAge: 31_536_000_000, immutable: true });
    }
    // A missing asset is a 404, not the app's page (a stale index.html would otherwise load HTML as script).
    if (path.startsWith("assets/")) return reply.callNotFound();
    return page(req, reply);
  });
};
