import fp from "fastify-plugin";
import type { Principal } from "@gatehouse/rpc";
import { pickLocale, type Locale } from "@gatehouse/errors";

declare module "fastify" {
  interface FastifyRequest {
    startedAt: number;
    locale: Locale;
    /** `sc=true`: the caller wants one validation error per call. */
    singleError: boolean;
    /** The route takes a bearer token: its 401 and 403 answers carry an RFC 6750 challenge (http/bearer-guard.ts). */
    bearerProtected: boolean;
    /** Who the bearer token stands for, once the route's bearer guard accepted it. */
    principal: Principal | null;
  }
}

/** Arrival time, locale (Accept-Language) and the `sc` flag of every request. */
export const requestContext = fp(async (app) => {
  app.decorateRequest("startedAt", 0);
  app.decorateRequest("locale", "en");
  app.decorateRequest("singleError", false);
  app.decorateRequest("bearerProtected", false);
  app.decorateRequest("principal", null);
  app.addHook("onRequest", async (req, reply) => {
    req.startedAt = performance.now();
    req.locale = pickLocale(req.headers["accept-language"]);
    const sc = (req.query as Record<string, unknown> | undefined)?.sc;
    req.singleError = sc === "true" || sc === "1";
    reply.header("x-request-id", req.id);
  });
});
