import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import fp from "fastify-plugin";
import { ErrorEnvelope, OAuthError } from "../schemas/common.ts";

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
    refResolver: { buildLocalReference: (json, _base, _frag, i) => (typeof json.$id === "string" ? json.$id : `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: "/docs" });
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
});
