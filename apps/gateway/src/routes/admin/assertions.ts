import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import Type, { type Static } from "typebox";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { LegalAssertion } from "@gatehouse/proto";
import type { GatewayDeps } from "../../deps.ts";
import { asOperator } from "../../http/admin-call.ts";
import { withRuleViolations } from "../../http/all-violations.ts";
import { page } from "../../http/admin-json.ts";
import { sendContent } from "../../http/envelope.ts";
import { PageQuery } from "../../schemas/admin.ts";
import {
  AssertionContent,
  AssertionHistoryList,
  AssertionVersions,
  PublishAssertionBody,
} from "../../schemas/assertions.ts";
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
 * assertions and new versions of them, list them with every version and read
 * a key's history. Users who have not accepted the latest version of a
 * mandatory one get 451 at login.
 */
export const adminAssertionsRoutes: FastifyPluginAsyncTypebox<GatewayDeps> = async (app, deps) => {
  const assertions = deps.assertions;
  if (!assertions) return;

  app.post(
    "/admin/v1/assertions",
    {
      // A body the schema refuses still gets the registry's rules checked (every violation at once).
      attachValidation: true,
      schema: {
        summary: "Publish a legal assertion or a new version of one",
        description:
          "Operator token with admin:write (or admin). The version must be new for the key (409 otherwise) and becomes the latest.",
        tags: ["admin"],
        security: [{ bearer: [] }],
        querystring: ScQuery,
        body: PublishAssertionBody,
        response: { 201: AssertionContent, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (req, reply) => {
      const publish = (b: Static<typeof PublishAssertionBody>, validateOnly = false) => {
        const displayName = typeof b.displayName === "string" ? { en: b.displayName } : b.displayName;
        const assertion = {
          key: b.key,
          displayName,
          type: b.type,
          typology: b.typology,
          property: b.property ?? "",
          mandatory: b.mandatory ?? false,
          version: b.version,
        };
        return assertions.publishAssertion({ assertion, validateOnly }, asOperator(req));
      };
      if (req.validationError)
        throw await withRuleViolations(req.validationError, req.body, (rest) =>
          publish(rest as Static<typeof PublishAssertionBody>, true),
        );
      const b = req.body;
      const res = await publish(b);
      reply.header("location", `/admin/v1/assertions/${encodeURIComponent(b.key)}`);
      return sendContent(reply, 201, assertionToJson(res.assertion!));
    },
  );

  const registryAdmin = deps.registryAdmin;
  if (registryAdmin) {
    app.get(
      "/admin/v1/assertions",
      {
        schema: {
          summary: "List legal assertions, each with every version (latest first)",
          description: "Each item is the latest version with `versions` (latest first); in key order, in pages.",
          tags: ["admin"],
          security: [{ bearer: [] }],
          querystring: Type.Object(
            { typology: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), ...PageQuery },
            { additionalProperties: true },
          ),
          response: { 200: AssertionHistoryList, ...errorResponses(400, 401, 403) },
        },
      },
      async (req, reply) => {
        const q = req.query;
        const res = await registryAdmin.listAssertionHistory(
          { typology: q.typology ?? "", pageSize: q.limit ?? 0, pageToken: q.cursor ?? "" },
          asOperator(req),
        );
        const items = res.assertions.map((a) => ({
          ...assertionToJson(a.versions[0]!),
          versions: a.versions.map(assertionToJson),
        }));
        return sendContent(reply, 200, { objectType: "assertions", ...page(items, res.nextPageToken) });
      },
    );
  }

  app.get(
    "/admin/v1/assertions/:key",
    {
      schema: {
        summary: "Every version of a legal assertion, latest first",
        tags: ["admin"],
        security: [{ bearer: [] }],
        params: Type.Object({ key: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: AssertionVersions, ...errorResponses(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const res = await assertions.getAssertion({ key: req.params.key }, asOperator(req));
      return sendContent(reply, 200, { key: req.params.key, versions: res.versions.map(assertionToJson) });
    },
  );
};
