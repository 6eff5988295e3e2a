import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { fromJson, type JsonObject } from "@bufbuild/protobuf";
import Type, { type Static } from "typebox";
import { PersonSchema } from "@gatehouse/proto";
import type { GatewayDeps } from "../../deps.ts";
import { asOperator, bodyless } from "../../http/admin-call.ts";
import { withRuleViolations } from "../../http/all-violations.ts";
import { adminApplicationToJson, page } from "../../http/admin-json.ts";
import { sendContent } from "../../http/envelope.ts";
import { AdminApplication, ContentOf, ListOf, PageQuery } from "../../schemas/admin.ts";
import { person } from "../../schemas/application.ts";
import { errorResponses } from "../../schemas/common.ts";

const closed = { additionalProperties: false } as const;
const ClientId = Type.Object({ client_id: Type.String({ minLength: 1, maxLength: 128 }) });
const Url = Type.String({ maxLength: 2048 });

/** PATCH: contract section 7's settings plus the application's own members; each only when sent. */
const AppPatch = Type.Object(
  {
    displayName: Type.Optional(Type.String({ maxLength: 1000 })),
    url: Type.Optional(Url),
    redirectUris: Type.Optional(Type.Array(Url, { maxItems: 1000 })),
    contact: Type.Optional(
      Type.Object(
        {
          support: Type.Optional(person(true)),
          projectManager: Type.Optional(person(false)),
          productOwner: Type.Optional(person(false)),
        },
        closed,
      ),
    ),
    whitelist: Type.Optional(Type.Array(Url, { maxItems: 1000 })),
    defaultCallback: Type.Optional(Url),
    mfa: Type.Optional(Type.String({ maxLength: 16 })),
    captcha: Type.Optional(Type.String({ maxLength: 16, description: '"off" (default) or "altcha" (section 17)' })),
    smsPerHour: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, maximum: 2_147_483_647 }), Type.Null()], {
        description: "The application's own hourly SMS budget; null = none of its own",
      }),
    ),
    phonePrefixes: Type.Optional(
      Type.Array(Type.String({ maxLength: 8 }), { maxItems: 1000, description: 'Calling codes like "+34"; [] = any' }),
    ),
  },
  { ...closed, $id: "AdminApplicationPatch" },
);

const Password = ContentOf(Type.Object({ id: Type.String(), password: Type.String() }));
const admin = { tags: ["admin"], security: [{ bearer: [] }] };

/** /admin/v1/apps: the registry's applications as operators see them (contract sections 6 and 7). */
export const adminAppsRoutes: FastifyPluginAsyncTypebox<GatewayDeps> = async (app, deps) => {
  const registryAdmin = deps.registryAdmin;
  if (!registryAdmin) return;

  app.get(
    "/admin/v1/apps",
    {
      schema: {
        ...admin,
        summary: "List or search applications (client_id prefix or displayName substring)",
        querystring: Type.Object(
          { q: Type.Optional(Type.String({ maxLength: 200 })), ...PageQuery },
          { additionalProperties: true },
        ),
        response: { 200: ListOf(AdminApplication), ...errorResponses(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const res = await registryAdmin.listApplications(
        { query: q.q ?? "", pageSize: q.limit ?? 0, pageToken: q.cursor ?? "" },
        asOperator(req),
      );
      return sendContent(reply, 200, page(res.applications.map(adminApplicationToJson), res.nextPageToken));
    },
  );

  app.get(
    "/admin/v1/apps/:client_id",
    {
      schema: {
        ...admin,
        summary: "Read an application with its entry points and settings (never its password)",
        params: ClientId,
        response: { 200: ContentOf(AdminApplication), ...errorResponses(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const res = await registryAdmin.getApplicationRecord({ clientId: req.params.client_id }, asOperator(req));
      return sendContent(reply, 200, adminApplicationToJson(res.application!));
    },
  );

  app.patch(
    "/admin/v1/apps/:client_id",
    {
      // A body the schema refuses still gets the registry's rules checked (every violation at once).
      attachValidation: true,
      schema: {
        ...admin,
        summary:
          "Change an application: displayName, url, redirectUris, contact, whitelist, defaultCallback, mfa, captcha, smsPerHour, phonePrefixes (audited)",
        description:
          "Only the members sent change, under every rule of application creation. `redirectUris` and `whitelist` replace their lists; each contact person sent replaces that person.",
        params: ClientId,
        body: AppPatch,
        response: { 200: ContentOf(AdminApplication), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const change = (b: Static<typeof AppPatch>, validateOnly = false) => {
        const contact = b.contact && {
          support: b.contact.support && fromJson(PersonSchema, b.contact.support as JsonObject),
          projectManager: b.contact.projectManager && fromJson(PersonSchema, b.contact.projectManager as JsonObject),
          productOwner: b.contact.productOwner && fromJson(PersonSchema, b.contact.productOwner as JsonObject),
        };
        const lists = {
          redirectUris: b.redirectUris && { values: b.redirectUris },
          whitelist: b.whitelist && { values: b.whitelist },
          phonePrefixes: b.phonePrefixes && { values: b.phonePrefixes },
        };
        const members = {
          displayName: b.displayName,
          url: b.url,
          contact,
          defaultCallback: b.defaultCallback,
          mfa: b.mfa,
          captcha: b.captcha,
          smsPerHour: b.smsPerHour === undefined ? undefined : { value: b.smsPerHour ?? undefined },
        };
        return registryAdmin.updateApplication(
          { clientId: req.params.client_id, ...members, ...lists, validateOnly },
          asOperator(req),
        );
      };
      if (req.validationError)
        throw await withRuleViolations(req.validationError, req.body, (rest) =>
          change(rest as Static<typeof AppPatch>, true),
        );
      const res = await change(req.body);
      return sendContent(reply, 200, adminApplicationToJson(res.application!));
    },
  );

  app.get(
    "/admin/v1/apps/:client_id/password",
    {
      schema: {
        ...admin,
        summary: "Reveal an application's password (audited)",
        params: ClientId,
        response: { 200: Password, ...errorResponses(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const res = await deps.registry.revealClientSecret(
        { clientId: req.params.client_id, reason: "" },
        asOperator(req),
      );
      return sendContent(reply, 200, { id: req.params.client_id, password: res.clientSecret });
    },
  );

  app.post(
    "/admin/v1/apps/:client_id/password/rotate",
    {
      ...bodyless,
      schema: {
        ...admin,
        summary:
          "Rotate an application's password: the new one is shown once, the old one stops working at once (audited)",
        params: ClientId,
        response: { 200: Password, ...errorResponses(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const res = await registryAdmin.rotateClientSecret({ clientId: req.params.client_id }, asOperator(req));
      return sendContent(reply, 200, { id: req.params.client_id, password: res.clientSecret });
    },
  );
};
