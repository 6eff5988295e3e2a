import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import fp from "fastify-plugin";
import { ErrorEnvelope, OAuthError } from "../schemas/common.ts";

/** The CSP of /docs (checked in Chromium: the page renders and runs with no violation; test/robustness/security-headers). */
export function docsCsp(serverUrl: string): string {
  return [
    "default-src 'none'",
    "base-uri 'none'",
    `connect-src 'self' ${new URL(serverUrl).origin}`,
    "font-src 'self' data:",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "img-src 'self' data:",
    "object-src 'none'",
    "script-src 'self'",
    // Swagger UI sets one inline style; CSS only, scripts stay 'self'.
    "style-src 'self' 'unsafe-inline'",
  ].join("; ");
}

/** OpenAPI 3.1 generated from the routes' TypeBox schemas, at /openapi.json, with a docs page at /docs. */
export const openapi = fp(async (app, opts: { serverUrl: string }) => {
  app.addSchema(ErrorEnvelope);
  app.addSchema(OAuthError);
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: { title: "Gatehouse", version: "0.1.0", description: "Identity and consumer-registration service" },
      servers: [{ url: opts.serverUrl }],
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
      tags: [
        { name: "graph", description: "{graph_url}: applications" },
        { name: "oauth", description: "{auth_url}: OAuth 2.0" },
        { name: "users", description: "{base_url}: user operations" },
        { name: "admin", description: "Operator API" },
      ],
    },
    refResolver: {
      buildLocalReference: (json, _base, _frag, i) => (typeof json.$id === "string" ? json.$id : `def-${i}`),
    },
  });
  // Swagger UI loads only its own files (no inline script or style); "Try it out" calls the server URL.
  await app.register(swaggerUi, { routePrefix: "/docs", staticCSP: docsCsp(opts.serverUrl) });
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
});
