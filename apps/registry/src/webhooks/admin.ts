import { randomBytes } from "node:crypto";
import type { AuditContext } from "@gatehouse/admin";
import type { Db } from "@gatehouse/db";
import { domainError } from "@gatehouse/errors";
import { newWebhookSecret, type TargetPolicy } from "@gatehouse/events";
import { auditStore } from "../audit/store.ts";
import { deliveryStore, type DeliveryRow } from "./deliveries.ts";
import { checkFields } from "./fields.ts";
import type { WebhookSecrets } from "./secrets.ts";
import { webhookStore, type WebhookFields, type WebhookRow } from "./store.ts";

/** The previous secret signs beside the new one this long after a rotation (contract section 14: up to 24 h). */
export const ROTATION_GRACE_MS = 24 * 3_600_000;

export interface WebhookAdminDeps {
  db: Db;
  secrets: WebhookSecrets;
  policy: TargetPolicy;
  /** Tells the delivery worker a delivery is due now (a manual retry). */
  wake?: () => void;
}

const newWebhookId = () => `wh_${Date.now().toString(36).padStart(9, "0")}${randomBytes(6).toString("hex")}`;

async function applicationExists(db: Db, clientId: string): Promise<boolean> {
  const { rows } = await db.query("SELECT 1 FROM registry.clients WHERE client_id = $1", [clientId]);
  return rows.length > 0;
}

// The audit names what changed, never the secret.
const audited = (f: WebhookFields) => ({
  url: f.url,
  events: f.events,
  application: f.application,
  enabled: f.enabled,
});

export async function createWebhook(
  deps: WebhookAdminDeps,
  f: WebhookFields,
  who: AuditContext,
): Promise<{ webhook: WebhookRow; secret: string }> {
  await checkFields(f, deps.policy, (id) => applicationExists(deps.db, id));
  const id = newWebhookId();
  const secret = newWebhookSecret();
  const webhook = await deps.db.tx(async (q) => {
    const row = await webhookStore(q).insert(id, f, deps.secrets.seal(id, secret));
    await auditStore(q).record({ ...who, action: "webhook.create", target: id, details: audited(f) });
    return row;
  });
  return { webhook, secret };
}

export async function findWebhook(db: Db, id: string): Promise<WebhookRow> {
  const row = id ? await webhookStore(db).get(id) : undefined;
  if (!row) throw domainError("WEBHOOK_NOT_FOUND", undefined, { metadata: { id } });
  return row;
}

export async function updateWebhook(
  deps: WebhookAdminDeps,
  id: string,
  change: Partial<WebhookFields>,
  who: AuditContext,
): Promise<WebhookRow> {
  const current = await findWebhook(deps.db, id);
  const next: WebhookFields = {
    url: change.url ?? current.url,
    events: change.events ?? current.events,
    application: change.application === undefined ? current.application : change.application || null,
    description: change.description ?? current.description,
    enabled: change.enabled ?? current.enabled,
  };
  await checkFields(next, deps.policy, (c) => applicationExists(deps.db, c));
  return deps.db.tx(async (q) => {
    if (!(await webhookStore(q).get(id, true))) throw domainError("WEBHOOK_NOT_FOUND", undefined, { metadata: { id } });
    const row = await webhookStore(q).update(id, next);
    const changed = Object.keys(change).filter((k) => change[k as keyof WebhookFields] !== undefined);
    await auditStore(q).record({
      ...who,
      action: "webhook.update",
      target: id,
      details: { changed, ...audited(next) },
    });
    return row;
  });
}

export async function deleteWebhook(db: Db, id: string, who: AuditContext): Promise<void> {
  await db.tx(async (q) => {
    if (!(await webhookStore(q).get(id, true))) throw domainError("WEBHOOK_NOT_FOUND", undefined, { metadata: { id } });
    await webhookStore(q).remove(id);
    await auditStore(q).record({ ...who, action: "webhook.delete", target: id });
  });
}

export async function rotateWebhookSecret(
  deps: WebhookAdminDeps,
  id: string,
  who: AuditContext,
): Promise<{ webhook: WebhookRow; secret: string }> {
  const secret = newWebhookSecret();
  const webhook = await deps.db.tx(async (q) => {
    const current = await webhookStore(q).get(id, true);
    if (!current) throw domainError("WEBHOOK_NOT_FOUND", undefined, { metadata: { id } });
    const row = await webhookStore(q).rotate(
      id,
      deps.secrets.seal(id, secret),
      current.secretSealed,
      ROTATION_GRACE_MS,
    );
    await auditStore(q).record({ ...who, action: "webhook.rotate_secret", target: id });
    return row;
  });
  return { webhook, secret };
}

export async function retryDelivery(
  db: Db,
  webhookId: string,
  deliveryId: string,
  who: AuditContext,
): Promise<DeliveryRow> {
  return db.tx(async (q) => {
    const row = await deliveryStore(q).retry(webhookId, deliveryId);
    if (!row) throw domainError("WEBHOOK_DELIVERY_NOT_FOUND", undefined, { metadata: { id: deliveryId } });
    await auditStore(q).record({
      ...who,
      action: "webhook.retry_delivery",
      target: webhookId,
      details: { delivery: deliveryId, event: row.eventId },
    });
    return row;
  });
}
