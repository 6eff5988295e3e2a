import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import Type from "typebox";
import { APPS_READ_SCOPE, APPS_WRITE_SCOPE } from "@gatehouse/rpc";
import { applicationFromJson, applicationToJson } from "../../http/application-json.ts";
import { asOperator } from "../../http/admin-call.ts";
import { withRuleViolations } from "../../http/all-violations.ts";
import { asCaller } from "../../http/bearer.ts";
import { anyScope, requireBearer } from "../../http/bearer-guard.ts";
import { sendContent } from "../../http/envelope.ts";
import { ApplicationRequest, Application, CreatedApplication } from "../../schemas/application.ts";
import { errorResponses, Result, ScQuery } from "../../schemas/common.ts";
import type { GatewayDeps } from "../../deps.ts";

/** {graph_url}/v2/apps: application creation (spec operation 1) and read-back. */
export const appsRoutes: FastifyPluginAsyncTypebox<GatewayDeps> = async (app, deps) => {
  app.post(
    "/v2/apps",
    {
      onRequest: requireBearer(deps.verifyAccessToken, anyScope(APPS_WRITE_SCOPE)),
      // A body the schema refuses still gets the registry's rules checked (every violation at once).
      attachValidation: true,
      schema: {
        summary: "Create an application with its entry points",
        description: "Operator token with scope apps:write. The generated password is returned only here.",
        tags: ["graph"],
        security: [{ bearer: [] }],
        querystring: ScQuery,
        body: ApplicationRequest,
        response: {
          201: Type.Object({ content: CreatedApplication, result: Result }),
          ...errorResponses(400, 401, 403, 415, 500),
        },
      },
    },
    async (req, reply) => {
      if (req.validationError) {
        const check = (rest: Record<string, unknown>) =>
          deps.registry.createApplication(
            { application: applicationFromJson(rest), validateOnly: true },
            asOperator(req),
          );
        throw await withRuleViolations(req.validationError, req.body, check);
      }
      // The operator's token and the client address (the audit entry's `address`).
      const res = await deps.registry.createApplication(
        { application: applicationFromJson(req.body) },
        asOperator(req),
      );
      const created = { ...applicationToJson(res.application!), password: res.password };
      reply.header("location", `/v2/apps/${encodeURIComponent(res.application!.id)}`);
      return sendContent(reply, 201, created);
    },
  );

  app.get(
    "/v2/apps/:id",
    {
      onRequest: requireBearer(deps.verifyAccessToken, anyScope(APPS_READ_SCOPE, APPS_WRITE_SCOPE)),
      schema: {
        summary: "Read an application (never its password)",
        tags: ["graph"],
        security: [{ bearer: [] }],
        params: Type.Object({ id: Type.String({ maxLength: 128 }) }),
        response: { 200: Type.Object({ content: Application, result: Result }), ...errorResponses(401, 403, 404, 500) },
      },
    },
    async (req, reply) => {
      const res = await deps.registry.getApplication({ clientId: req.params.id }, asCaller(req.principal!.token));
      return sendContent(reply, 200, applicationToJson(res.application!));
    },
  );
};
