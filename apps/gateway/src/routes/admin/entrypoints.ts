import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { fromJson, type JsonObject } from "@bufbuild/protobuf";
import Type, { type Static } from "typebox";
import { EntrypointSchema, FieldConfigSchema, TypologiesSchema } from "@gatehouse/proto";
import type { GatewayDeps } from "../../deps.ts";
import { asOperator } from "../../http/admin-call.ts";
import { withRuleViolations } from "../../http/all-violations.ts";
import { entrypointToJson } from "../../http/admin-json.ts";
import { sendContent } from "../../http/envelope.ts";
import { AdminEntrypoint, ContentOf } from "../../schemas/admin.ts";
import { entrypointProps } from "../../schemas/application.ts";
import { errorResponses, ScQuery } from "../../schemas/common.ts";

const closed = { additionalProperties: false } as const;
const ClientId = Type.Object({ client_id: Type.String({ minLength: 1, maxLength: 128 }) });
const Ids = Type.Object({
  client_id: Type.String({ minLength: 1, maxLength: 128 }),
  entrypoint_id: Type.String({ minLength: 1, maxLength: 200 }),
});

/** One entry point as in the `entrypoints` of contract section 3. */
const NewEntrypoint = Type.Object(entrypointProps, { ...closed, $id: "NewEntrypoint" });

/** PATCH: each member sent replaces it; the id and key stay. */
const EntrypointPatch = Type.Object(
  {
    displayName: Type.Optional(entrypointProps.displayName),
    assisted: Type.Optional(Type.Boolean()),
    passwordless: Type.Optional(Type.Boolean()),
    fields: Type.Optional(entrypointProps.fields),
    typology: Type.Optional(entrypointProps.typology),
    identityProviders: entrypointProps.identityProviders,
  },
  { ...closed, $id: "EntrypointPatch" },
);

const admin = { tags: ["admin"], security: [{ bearer: [] }] };

/** /admin/v1/apps/{client_id}/entrypoints: add and change entry points under every rule of contract section 3. */
export const adminEntrypointRoutes: FastifyPluginAsyncTypebox<GatewayDeps> = async (app, deps) => {
  const registryAdmin = deps.registryAdmin;
  if (!registryAdmin) return;

  app.post(
    "/admin/v1/apps/:client_id/entrypoints",
    {
      // A body the schema refuses still gets the registry's rules checked (every violation at once).
      attachValidation: true,
      schema: {
        ...admin,
        summary: "Add an entry point to an application (every rule of application creation; audited)",
        params: ClientId,
        querystring: ScQuery,
        body: NewEntrypoint,
        response: { 201: ContentOf(AdminEntrypoint), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      if (req.validationError) {
        const check = (rest: Record<string, unknown>) =>
          registryAdmin.addEntrypoint(
            {
              clientId: req.params.client_id,
              entrypoint: fromJson(EntrypointSchema, rest as JsonObject),
              validateOnly: true,
            },
            asOperator(req),
          );
        throw await withRuleViolations(req.validationError, req.body, check);
      }
      const entrypoint = fromJson(EntrypointSchema, req.body as JsonObject);
      const res = await registryAdmin.addEntrypoint({ clientId: req.params.client_id, entrypoint }, asOperator(req));
      return sendContent(reply, 201, entrypointToJson(res.entrypoint!));
    },
  );

  app.patch(
    "/admin/v1/apps/:client_id/entrypoints/:entrypoint_id",
    {
      // Here too: the schema's violations and the rules' in one answer.
      attachValidation: true,
      schema: {
        ...admin,
        summary:
          "Change an entry point: displayName, assisted, passwordless, fields, typology, identityProviders (audited)",
        params: Ids,
        querystring: ScQuery,
        body: EntrypointPatch,
        response: { 200: ContentOf(AdminEntrypoint), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const update = (b: Static<typeof EntrypointPatch>, validateOnly = false) =>
        registryAdmin.updateEntrypoint(
          {
            clientId: req.params.client_id,
            entrypointId: req.params.entrypoint_id,
            displayName: b.displayName,
            assisted: b.assisted,
            passwordless: b.passwordless,
            fields: b.fields
              ? { values: b.fields.map((f) => fromJson(FieldConfigSchema, f as JsonObject)) }
              : undefined,
            typology: b.typology ? fromJson(TypologiesSchema, b.typology as JsonObject) : undefined,
            identityProviders: b.identityProviders ? { values: b.identityProviders } : undefined,
            validateOnly,
          },
          asOperator(req),
        );
      if (req.validationError)
        throw await withRuleViolations(req.validationError, req.body, (rest) =>
          update(rest as Static<typeof EntrypointPatch>, true),
        );
      const res = await update(req.body);
      return sendContent(reply, 200, entrypointToJson(res.entrypoint!));
    },
  );
};
