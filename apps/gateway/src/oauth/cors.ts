import cors, { type FastifyCorsOptions } from "@fastify/cors";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { bearerToken } from "../http/bearer.ts";
import type { OAuthClients } from "./applications.ts";
import { basicCredentials } from "./client-auth.ts";
import { originsOf, type RelyingPartyOrigins } from "./origins.ts";

/**
 * The endpoints a relying party in a browser calls (contract section 9) and
 * how each finds the application whose origins it answers: `client` from the
 * request's client (Basic or client_id), `bearer` from the access token's
 * application, `any` (no client in the request) every application.
 */
const ENDPOINTS: Record<string, { from: "client" | "bearer" | "any"; methods: string }> = {
  "/oauth2/token": { from: "client", methods: "POST" },
  "/oauth2/revoke": { from: "client", methods: "POST" },
  "/oauth2/userinfo": { from: "bearer", methods: "GET, POST" },
  "/oauth2/jwks": { from: "any", methods: "GET" },
  "/.well-known/openid-configuration": { from: "any", methods: "GET" },
  "/.well-known/oauth-authorization-server": { from: "any", methods: "GET" },
};

/** The client_id a token request names: Basic credentials' id, else the form's. */
function requestClientId(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith("Basic ")) return basicCredentials(header)?.id;
  const id = (req.body as Record<string, unknown> | undefined)?.client_id;
  return typeof id === "string" ? id : undefined;
}

/**
 * The application of a bearer token, read from its claims without checking
 * its signature: the route verifies the token itself; here it only picks
 * whose origins may read the answer (a forged token names a real
 * application's origins at best, and gets a 401).
 */
function tokenApplicationId(req: FastifyRequest): string | undefined {
  const token = bearerToken(req);
  try {
    const claims = JSON.parse(Buffer.from(token?.split(".")[1] ?? "", "base64url").toString("utf8")) as Record<
      string,
      unknown
    >;
    const id = claims.app_id ?? claims.client_id;
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CORS of the relying parties' endpoints (@fastify/cors, per request): an
 * Origin is answered (Access-Control-Allow-Origin: that origin, never `*`,
 * no credentials) when it is exactly the origin of one of the redirect URIs
 * of the application the request is about; when the request names no
 * application we know (JWKS, discovery, preflights, no or unknown client),
 * of any application. Every other origin, and every other endpoint, gets no
 * CORS header. Registered in the encapsulated scope of those endpoints only;
 * it runs before the handler (preHandler), when the form body is parsed.
 */
export async function relyingPartyCors(
  app: FastifyInstance,
  deps: { clients: OAuthClients; origins: RelyingPartyOrigins },
) {
  async function allowed(req: FastifyRequest, origin: string, from: "client" | "bearer" | "any"): Promise<boolean> {
    const named =
      req.method === "OPTIONS" || from === "any"
        ? undefined
        : from === "client"
          ? requestClientId(req)
          : tokenApplicationId(req);
    const client = named ? await deps.clients.client(named) : undefined;
    return client ? originsOf(client.app.redirectUris).has(origin) : deps.origins.has(origin);
  }

  async function options(req: FastifyRequest): Promise<FastifyCorsOptions> {
    const endpoint = ENDPOINTS[req.routeOptions.url ?? ""];
    const origin = req.headers.origin;
    const ok =
      endpoint !== undefined &&
      typeof origin === "string" &&
      (await allowed(req, origin, endpoint.from).catch(() => false));
    return {
      origin: ok ? origin : false,
      methods: endpoint?.methods ?? "GET",
      allowedHeaders: ["Authorization", "Content-Type", "Accept", "Accept-Language", "DPoP"],
      exposedHeaders: ["WWW-Authenticate", "Retry-After"],
      credentials: false,
      maxAge: 600,
      // An OPTIONS without Access-Control-Request-Method is answered like a preflight, not refused.
      strictPreflight: false,
    };
  }

  await app.register(cors, {
    hook: "preHandler",
    delegator: (req, cb) => {
      options(req).then((o) => cb(null, o), cb);
    },
  });
}
