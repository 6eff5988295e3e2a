import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import Type from "typebox";
import type { GatewayDeps } from "../../deps.ts";
import { asOperator, bodyless } from "../../http/admin-call.ts";
import { page } from "../../http/admin-json.ts";
import { sendContent } from "../../http/envelope.ts";
import { deliveryToJson, webhookToJson } from "../../http/webhook-json.ts";
import { ContentOf, ListOf, PageQuery } from "../../schemas/admin.ts";
import { errorResponses } from "../../schemas/common.ts";
import { DeliveryItem, WebhookCreate, WebhookItem, WebhookPatch, WebhookWithSecret } from "../../schemas/webhooks.ts";

const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const DeliveryParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  delivery: Type.String({ minLength: 1, maxLength: 64 }),
});
const admin = { tags: ["admin"], security: [{ bearer: [] }] };
const Page = Type.Object({ ...PageQuery }, { additionalProperties: true });

/** /admin/v1/webhooks (contract section 14): endpoints, their secrets (shown once), deliveries and retries; audited. */
export const adminWebhookRoutes: FastifyPluginAsyncTypebox<GatewayDeps> = async (app, deps) => {
  const hooks = deps.webhooksAdmin;
  if (!hooks) return;

  app.get(
    "/admin/v1/webhooks",
    {
      schema: {
        ...admin,
        summary: "List webhook endpoints, newest first",
        querystring: Page,
        response: { 200: ListOf(WebhookItem), ...errorResponses(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const res = await hooks.listWebhooks({ pageSize: q.limit ?? 0, pageToken: q.cursor ?? "" }, asOperator(req));
      return sendContent(reply, 200, page(res.webhooks.map(webhookToJson), res.nextPageToken));
    },
  );

  app.post(
    "/admin/v1/webhooks",
    {
      schema: {
        ...admin,
        summary: "Add a webhook endpoint; the 201 carries its signing secret, once (audited)",
        description:
          '`events`: event types or `["*"]`; `application`: only that client_id\'s events. The URL must be https (http and private addresses only with WEBHOOK_ALLOW_PRIVATE=true).',
        body: WebhookCreate,
        response: { 201: ContentOf(WebhookWithSecret), ...errorResponses(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const b = req.body;
      const res = await hooks.createWebhook(
        {
          url: b.url,
          events: b.events,
          application: b.application ?? "",
          description: b.description ?? "",
          enabled: b.enabled,
        },
        asOperator(req),
      );
      return sendContent(reply, 201, { ...webhookToJson(res.webhook!), secret: res.secret });
    },
  );

  app.get(
    "/admin/v1/webhooks/:id",
    {
      schema: {
        ...admin,
        summary: "Read a webhook endpoint (never its secret)",
        params: Id,
        response: { 200: ContentOf(WebhookItem), ...errorResponses(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const res = await hooks.getWebhook({ id: req.params.id }, asOperator(req));
      return sendContent(reply, 200, webhookToJson(res.webhook!));
    },
  );

  app.patch(
    "/admin/v1/webhooks/:id",
    {
      schema: {
        ...admin,
        summary: "Change a webhook endpoint: url, events, application, description, enabled (audited)",
        params: Id,
        body: WebhookPatch,
        response: { 200: ContentOf(WebhookItem), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const b = req.body;
      const res = await hooks.updateWebhook(
        {
          id: req.params.id,
          url: b.url,
          events: b.events && { values: b.events },
          application: b.application === undefined ? undefined : (b.application ?? ""),
          description: b.description,
          enabled: b.enabled,
        },
        asOperator(req),
      );
      return sendContent(reply, 200, webhookToJson(res.webhook!));
    },
  );

  app.delete(
    "/admin/v1/webhooks/:id",
    {
      ...bodyless,
      schema: {
        ...admin,
        summary: "Remove a webhook endpoint and its deliveries (audited)",
        params: Id,
        response: { 204: Type.Null({ description: "Removed" }), ...errorResponses(401, 403, 404) },
      },
    },
    async (req, reply) => {
      await hooks.deleteWebhook({ id: req.params.id }, asOperator(req));
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/admin/v1/webhooks/:id/secret/rotate",
    {
      ...bodyless,
      schema: {
        ...admin,
        summary: "New signing secret, shown once; the previous one also signs for 24 hours (audited)",
        params: Id,
        response: { 200: ContentOf(WebhookWithSecret), ...errorResponses(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const res = await hooks.rotateWebhookSecret({ id: req.params.id }, asOperator(req));
      return sendContent(reply, 200, { ...webhookToJson(res.webhook!), secret: res.secret });
    },
  );

  app.get(
    "/admin/v1/webhooks/:id/deliveries",
    {
      schema: {
        ...admin,
        summary: "An endpoint's deliveries, newest first: event, status, attempts, last response code, next try",
        params: Id,
        querystring: Page,
        response: { 200: ListOf(DeliveryItem), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const res = await hooks.listWebhookDeliveries(
        { webhookId: req.params.id, pageSize: q.limit ?? 0, pageToken: q.cursor ?? "" },
        asOperator(req),
      );
      return sendContent(reply, 200, page(res.deliveries.map(deliveryToJson), res.nextPageToken));
    },
  );

  app.post(
    "/admin/v1/webhooks/:id/deliveries/:delivery/retry",
    {
      ...bodyless,
      schema: {
        ...admin,
        summary: "Try a delivery again now, with the same webhook-id (audited)",
        params: DeliveryParams,
        response: { 200: ContentOf(DeliveryItem), ...errorResponses(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const res = await hooks.retryWebhookDelivery(
        { webhookId: req.params.id, deliveryId: req.params.delivery },
        asOperator(req),
      );
      return sendContent(reply, 200, deliveryToJson(res.delivery!));
    },
  );
};
