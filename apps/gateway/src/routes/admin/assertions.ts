import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import Type from "typebox";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { LegalAssertion } from "@gatehouse/proto";
import { ADMIN_SCOPE } from "@gatehouse/rpc";
import type { GatewayDeps } from "../../deps.ts";
import { asCaller } from "../../http/bearer.ts";
import { anyScope, requireBearer } from "../../http/bearer-guard.ts";
import { sendContent } from "../../http/envelope.ts";
import { AssertionContent, AssertionList, AssertionVersions, PublishAssertionBody } from "../../schemas/assertions.ts";
import { errorResponses, ScQuery } from "../../schemas/common.ts";

/** One version of a legal assertion in the admin API's JSON. */
function assertionToJson(a: LegalAssertion) {
  return {
    objectType: "assertion" as const,
    key: a.key,
    displayName: { ...a.displayName },
    type: a.type,
    typology: a.typology,
    property: a.property,
    mandatory: a.mandatory,
    version: a.version,
    published: a.publishTime ? timestampDate(a.publishTime).toISOString() : "",
  };
}

/**
 * /admin/v1/assertions (contract sections 6 and 7): operators publish legal
 * assertions and new versions of them, list the latest versions and read a
 * key's history. Users who have not accepted the latest version of a
 * mandatory one get 451 at login.
 */
export const adminAssertionsRoutes: FastifyPluginAsyncTypebox<GatewayDeps> = async (app, deps) => {
  const assertions = deps.assertions;
  if (!assertions) return;
  // The operator's token is checked here first (401/403 before the body), then forwarded: the registry checks it again.
  const operator = requireBearer(deps.verifyAccessToken, anyScope(ADMIN_SCOPE));

  app.post(
    "/admin/v1/assertions",
    {
      onRequest: operator,
      schema: {
        summary: "Publish a legal assertion or a new version of one",
        description: "Operator token with scope admin. The version must be new for the key (409 otherwise) and becomes the latest.",
        tags: ["admin"],
        security: [{ bearer: [] }],
        querystring: ScQuery,
        body: PublishAssertionBody,
        response: { 201: AssertionContent, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (req, reply) => {
      const token = req.principal!.token;
      const b = req.body;
      const displayName = typeof b.displayName === "string" ? { en: b.displayName } : b.displayName;
      const res = await assertions.publishAssertion(
        {
          assertion: {
            key: b.key,
            displayName,
            type: b.type,
            typology: b.typology,
            property: b.property ?? "",
            mandatory: b.mandatory ?? false,
            version: b.version,
          },
        },
        asCaller(token),
      );
      reply.header("location", `/admin/v1/assertions/${encodeURIComponent(b.key)}`);
      reply.header("cache-control", "no-store");
      return sendContent(reply, 201, assertionToJson(res.assertion!));
    },
  );

  app.get(
    "/admin/v1/assertions",
    {
      onRequest: operator,
      schema: {
        summary: "List the latest version of every legal assertion",
        tags: ["admin"],
        security: [{ bearer: [] }],
        querystring: Type.Object({ typology: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) }, { additionalProperties: true }),
        response: { 200: AssertionList, ...errorResponses(401, 403) },
      },
    },
    async (req, reply) => {
      const token = req.principal!.token;
      const typologies = req.query.typology ? [req.query.typology] : [];
      const res = await assertions.listAssertions({ typologies }, asCaller(token));
      reply.header("cache-control", "no-store");
      return sendContent(reply, 200, { objectType: "assertions", items: res.assertions.map(assertionToJson) });
    },
  );

  app.get(
    "/admin/v1/assertions/:key",
    {
      onRequest: operator,
      schema: {
        summary: "Every version of a legal assertion, latest first",
        tags: ["admin"],
        security: [{ bearer: [] }],
        params: Type.Object({ key: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: AssertionVersions, ...errorResponses(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const token = req.principal!.token;
      const res = await assertions.getAssertion({ key: req.params.key }, asCaller(token));
      reply.header("cache-control", "no-store");
      return sendContent(reply, 200, { key: req.params.key, versions: res.versions.map(assertionToJson) });
    },
  );
};
