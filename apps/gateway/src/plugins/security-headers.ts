import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import helmet, { type HelmetOptions } from "helmet";
import type { Config } from "@gatehouse/config";
import { crossSiteFormPage } from "../hosted/index.ts";
import { AUTHORIZE_PATH, DEVICE_PATH } from "../hosted/paths.ts";

/** Routes whose hosted pages post forms back with a `form_token` (without one, a POST is a relying party's request). */
const HOSTED_FORMS = new Set([AUTHORIZE_PATH, DEVICE_PATH]);

type Origins = Pick<Config, "publicBaseUrl" | "publicGraphUrl" | "publicAuthUrl">;

/**
 * Whether a form POST comes from another site. Browsers vouch with
 * Sec-Fetch-Site; without it the Origin must be ours (a configured public
 * origin, or the host the request was sent to). `Origin: null` is what our
 * own pages send (they use Referrer-Policy no-referrer), so it alone proves
 * nothing either way and the form token decides.
 */
export function crossSiteForm(req: FastifyRequest, ours: Set<string>): boolean {
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined) return site !== "same-origin";
  const origin = req.headers.origin;
  if (origin === undefined || origin === "null" || ours.has(origin)) return false;
  try {
    return new URL(origin).host !== req.headers.host;
  } catch {
    return true;
  }
}

/**
 * Security headers of every answer (helmet): a CSP that loads nothing and
 * cannot be framed (`default-src 'none'; frame-ancestors 'none'`),
 * X-Frame-Options DENY, nosniff, no referrer, HSTS when the public URL is
 * https. Pages that load something (the hosted pages' hashed stylesheet, the
 * /docs Swagger UI) set their own CSP over it. COOP stays off: relying
 * parties open the hosted login in popups and need `window.opener` back.
 *
 * Hosted forms (a POST to the hosted login carrying `form_token`, its CSRF
 * token) from another site are refused with 403 before their handler runs,
 * even with a valid cookie and token pair. An authorization request a relying
 * party POSTs (OpenID Connect Core 3.1.2.1, no form_token) stays cross-site.
 */
export const securityHeaders = fp<Origins>(async (app, config) => {
  const headers = helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], baseUri: ["'none'"], frameAncestors: ["'none'"] },
    },
    crossOriginOpenerPolicy: false,
    referrerPolicy: { policy: "no-referrer" },
    strictTransportSecurity: config.publicBaseUrl.startsWith("https:")
      ? { maxAge: 31_536_000, includeSubDomains: false }
      : false,
    xFrameOptions: { action: "deny" },
  });
  // On the raw response, as helmet's middleware would: headers a route sets on the reply win.
  app.addHook("onRequest", (_req, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });

  const ours = new Set(
    [config.publicBaseUrl, config.publicGraphUrl, config.publicAuthUrl].map((u) => new URL(u).origin),
  );
  app.addHook("preHandler", async (req, reply) => {
    if (req.method !== "POST" || !HOSTED_FORMS.has(req.routeOptions.url ?? "")) return;
    if (!req.body || typeof req.body !== "object" || !("form_token" in req.body)) return;
    if (!crossSiteForm(req, ours)) return;
    return crossSiteFormPage(reply, req.locale);
  });
});

/**
 * The headers helmet's middleware sets for `options`, computed once. With no
 * function in the CSP they are the same for every request; built per request
 * (what @fastify/helmet does) they cost 5–16 µs of CPU each. Helmet's only
 * other act, removing X-Powered-By, is moot: nothing here sets it.
 */
export function helmetHeaders(options: HelmetOptions): [string, string][] {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: string | number) => headers.push([name, String(value)]),
    removeHeader: () => {},
  };
  let done = false;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
    done = true;
  });
  if (!done) throw new Error("helmet did not set its headers synchronously");
  return headers;
}
