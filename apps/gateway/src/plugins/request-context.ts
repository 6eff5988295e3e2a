import fp from "fastify-plugin";
import { pickLocale, type Locale } from "@gatehouse/errors";

declare module "fastify" {
  interface FastifyRequest {
    startedAt: number;
    locale: Locale;
    /** `sc=true`: the caller wants one validation error per call. */
    singleError: boolean;
  }
}

/** Arrival time, locale (Accept-Language) and the `sc` flag of every request. */
export const requestContext = fp(async (app) => {
  app.decorateRequest("startedAt", 0);
  app.decorateRequest("locale", "en");
  app.decorateRequest("singleError", false);
  app.addHook("onRequest", async (req, reply) => {
    req.startedAt = performance.now();
    req.locale = pickLocale(req.headers["accept-language"]);
    const sc = (req.query as Record<string, unknown> | undefined)?.sc;
    req.singleError = sc === "true" || sc === "1";
    reply.header("x-request-id", req.id);
  });
});
