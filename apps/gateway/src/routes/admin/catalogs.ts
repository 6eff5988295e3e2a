import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import Type, { type Static } from "typebox";
import { CatalogKind } from "@gatehouse/proto";
import type { GatewayDeps } from "../../deps.ts";
import { asOperator, bodyless } from "../../http/admin-call.ts";
import { withRuleViolations } from "../../http/all-violations.ts";
import { catalogItemToJson, page } from "../../http/admin-json.ts";
import { sendContent } from "../../http/envelope.ts";
import { CatalogItem, ContentOf, ListOf, PageQuery } from "../../schemas/admin.ts";
import { errorResponses, ScQuery } from "../../schemas/common.ts";

const closed = { additionalProperties: false } as const;

/** The catalogs of contract section 6 by their path name. */
const KINDS = {
  organizations: CatalogKind.ORGANIZATION,
  brands: CatalogKind.BRAND,
  properties: CatalogKind.PROPERTY,
  fields: CatalogKind.DATA_FIELD,
  typologies: CatalogKind.TYPOLOGY,
} as const;
type KindName = keyof typeof KINDS;

const Kind = Type.Union(
  Object.keys(KINDS).map((k) => Type.Literal(k)),
  { description: "organizations, brands, properties, fields or typologies" },
);
const Format = Type.String({
  maxLength: 16,
  description: "Data fields only: text (default), date, email, phone, number, boolean",
});
const NewItem = Type.Object(
  { key: Type.String({ maxLength: 64 }), displayName: Type.String({ maxLength: 1000 }), format: Type.Optional(Format) },
  { ...closed, $id: "CatalogItemNew" },
);
const ItemPatch = Type.Object(
  { displayName: Type.Optional(Type.String({ maxLength: 1000 })), format: Type.Optional(Format) },
  { ...closed, $id: "CatalogItemPatch" },
);
const KindParams = Type.Object({ kind: Kind });
const ItemParams = Type.Object({ kind: Kind, key: Type.String({ minLength: 1, maxLength: 64 }) });
const admin = { tags: ["admin"], security: [{ bearer: [] }] };

const kindOf = (k: string) => KINDS[k as KindName];

/** /admin/v1/catalogs/{kind}: the operator catalogs that applications reference by key (contract sections 3 and 6). */
export const adminCatalogRoutes: FastifyPluginAsyncTypebox<GatewayDeps> = async (app, deps) => {
  const registryAdmin = deps.registryAdmin;
  if (!registryAdmin) return;

  app.get(
    "/admin/v1/catalogs/:kind",
    {
      schema: {
        ...admin,
        summary: "List a catalog in key order",
        params: KindParams,
        querystring: Type.Object(PageQuery, { additionalProperties: true }),
        response: { 200: ListOf(CatalogItem), ...errorResponses(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const res = await registryAdmin.listCatalogEntries(
        { kind: kindOf(req.params.kind), pageSize: req.query.limit ?? 0, pageToken: req.query.cursor ?? "" },
        asOperator(req),
      );
      return sendContent(reply, 200, page(res.entries.map(catalogItemToJson), res.nextPageToken));
    },
  );

  app.post(
    "/admin/v1/catalogs/:kind",
    {
      // A body the schema refuses still gets the registry's rules checked (every violation at once).
      attachValidation: true,
      schema: {
        ...admin,
        summary: "Add a key to a catalog (audited)",
        params: KindParams,
        querystring: ScQuery,
        body: NewItem,
        response: { 201: ContentOf(CatalogItem), ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (req, reply) => {
      const add = (b: Static<typeof NewItem>, validateOnly = false) =>
        registryAdmin.createCatalogEntry(
          {
            kind: kindOf(req.params.kind),
            entry: { key: b.key, displayName: b.displayName, valueType: b.format ?? "" },
            validateOnly,
          },
          asOperator(req),
        );
      if (req.validationError)
        throw await withRuleViolations(req.validationError, req.body, (rest) =>
          add(rest as Static<typeof NewItem>, true),
        );
      const b = req.body;
      const res = await add(b);
      reply.header("location", `/admin/v1/catalogs/${req.params.kind}/${encodeURIComponent(b.key)}`);
      return sendContent(reply, 201, catalogItemToJson(res.entry!));
    },
  );

  app.get(
    "/admin/v1/catalogs/:kind/:key",
    {
      schema: {
        ...admin,
        summary: "Read one catalog item (the Location of its creation)",
        params: ItemParams,
        response: { 200: ContentOf(CatalogItem), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const res = await registryAdmin.getCatalogEntry(
        { kind: kindOf(req.params.kind), key: req.params.key },
        asOperator(req),
      );
      return sendContent(reply, 200, catalogItemToJson(res.entry!));
    },
  );

  app.patch(
    "/admin/v1/catalogs/:kind/:key",
    {
      schema: {
        ...admin,
        summary: "Change a catalog item's displayName (and a field's format) (audited)",
        params: ItemParams,
        querystring: ScQuery,
        body: ItemPatch,
        response: { 200: ContentOf(CatalogItem), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const res = await registryAdmin.updateCatalogEntry(
        {
          kind: kindOf(req.params.kind),
          key: req.params.key,
          displayName: req.body.displayName,
          valueType: req.body.format,
        },
        asOperator(req),
      );
      return sendContent(reply, 200, catalogItemToJson(res.entry!));
    },
  );

  app.delete(
    "/admin/v1/catalogs/:kind/:key",
    {
      ...bodyless,
      schema: {
        ...admin,
        summary:
          "Remove a catalog item that no application, entry point or legal assertion uses (409 in_use otherwise; audited)",
        params: ItemParams,
        response: { 204: Type.Null({ description: "Removed" }), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (req, reply) => {
      await registryAdmin.deleteCatalogEntry({ kind: kindOf(req.params.kind), key: req.params.key }, asOperator(req));
      return reply.code(204).send(null);
    },
  );
};
