import { create, type JsonObject } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { auditContext, pageOf, pageSize, readKeyCursor } from "@gatehouse/admin";
import type { Db } from "@gatehouse/db";
import { validationError } from "@gatehouse/errors";
import { isEventType, type WebhookEvent } from "@gatehouse/events";
import { WebhookDeliverySchema, WebhookSchema, type EventsService, type WebhooksAdminService } from "@gatehouse/proto";
import { ADMIN_READ_SCOPES, ADMIN_WRITE_SCOPES, INTERNAL_SCOPE, type ScopePolicy } from "@gatehouse/rpc";
import {
  createWebhook,
  deleteWebhook,
  findWebhook,
  retryDelivery,
  rotateWebhookSecret,
  updateWebhook,
  type WebhookAdminDeps,
} from "./admin.ts";
import { deliveryStore, type DeliveryRow } from "./deliveries.ts";
import { publishEvents } from "./events.ts";
import { webhookStore, type WebhookRow } from "./store.ts";

export const webhooksPolicy: ScopePolicy = {
  publishEvents: [INTERNAL_SCOPE],
  listWebhooks: ADMIN_READ_SCOPES,
  getWebhook: ADMIN_READ_SCOPES,
  createWebhook: ADMIN_WRITE_SCOPES,
  updateWebhook: ADMIN_WRITE_SCOPES,
  deleteWebhook: ADMIN_WRITE_SCOPES,
  rotateWebhookSecret: ADMIN_WRITE_SCOPES,
  listWebhookDeliveries: ADMIN_READ_SCOPES,
  retryWebhookDelivery: ADMIN_WRITE_SCOPES,
};

const ts = (d: Date | null) => (d ? timestampFromDate(d) : undefined);

export const webhookOut = (w: WebhookRow) =>
  create(WebhookSchema, {
    id: w.id,
    url: w.url,
    events: w.events,
    application: w.application ?? "",
    description: w.description,
    enabled: w.enabled,
    disabledReason: w.disabledReason ?? "",
    createTime: ts(w.createdAt),
    updateTime: ts(w.updatedAt),
    previousSecretExpireTime: w.previousUntil && w.previousUntil > new Date() ? ts(w.previousUntil) : undefined,
  });

const deliveryOut = (d: DeliveryRow) =>
  create(WebhookDeliverySchema, {
    id: d.id,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attempts,
    lastResponseCode: d.lastResponseCode ?? 0,
    lastError: d.lastError ?? "",
    nextAttemptTime: d.status === "pending" ? ts(d.nextAttemptAt) : undefined,
    createTime: ts(d.createdAt),
    updateTime: ts(d.updatedAt),
  });

/** EventsService: the users service's relay hands its outbox here; the worker is woken once they are stored. */
export function createEventsService(db: Db, stored: () => void): ServiceImpl<typeof EventsService> {
  return {
    async publishEvents(req) {
      if (req.events.length > 500) throw validationError([{ field: "events", code: "too_many" }]);
      const events: WebhookEvent[] = req.events.map((e, i) => {
        if (!/^evt_[A-Za-z0-9]{8,64}$/.test(e.id) || !isEventType(e.type) || !e.time)
          throw validationError([{ field: `events.${i}`, code: "invalid_value" }]);
        return {
          id: e.id,
          type: e.type,
          time: timestampDate(e.time).toISOString(),
          application: e.application || null,
          data: (e.data ?? {}) as JsonObject,
        };
      });
      const n = await db.tx((q) => publishEvents(q, events));
      if (n) stored();
      return { stored: n };
    },
  };
}

export function createWebhooksAdminService(deps: WebhookAdminDeps): ServiceImpl<typeof WebhooksAdminService> {
  const { db } = deps;
  return {
    async listWebhooks(req) {
      const size = pageSize(req.pageSize);
      const rows = await webhookStore(db).list(readKeyCursor(req.pageToken), size + 1);
      const page = pageOf(rows, size, (r) => r.id);
      return { webhooks: page.items.map(webhookOut), nextPageToken: page.next };
    },
    async getWebhook(req) {
      return { webhook: webhookOut(await findWebhook(db, req.id)) };
    },
    async createWebhook(req, ctx) {
      const fields = {
        url: req.url,
        events: req.events,
        application: req.application || null,
        description: req.description,
        enabled: req.enabled ?? true,
      };
      const done = await createWebhook(deps, fields, auditContext(ctx));
      return { webhook: webhookOut(done.webhook), secret: done.secret };
    },
    async updateWebhook(req, ctx) {
      const change = {
        url: req.url,
        events: req.events?.values,
        application: req.application,
        description: req.description,
        enabled: req.enabled,
      };
      return { webhook: webhookOut(await updateWebhook(deps, req.id, change, auditContext(ctx))) };
    },
    async deleteWebhook(req, ctx) {
      await deleteWebhook(db, req.id, auditContext(ctx));
      return {};
    },
    async rotateWebhookSecret(req, ctx) {
      const done = await rotateWebhookSecret(deps, req.id, auditContext(ctx));
      return { webhook: webhookOut(done.webhook), secret: done.secret };
    },
    async listWebhookDeliveries(req) {
      await findWebhook(db, req.webhookId);
      const size = pageSize(req.pageSize);
      const rows = await deliveryStore(db).list(req.webhookId, readKeyCursor(req.pageToken), size + 1);
      const page = pageOf(rows, size, (r) => r.id);
      return { deliveries: page.items.map(deliveryOut), nextPageToken: page.next };
    },
    async retryWebhookDelivery(req, ctx) {
      const row = await retryDelivery(db, req.webhookId, req.deliveryId, auditContext(ctx));
      deps.wake?.();
      return { delivery: deliveryOut(row) };
    },
  };
}
