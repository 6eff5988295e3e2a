import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

/** A new endpoint secret: "whsec_" + base64 of 32 random bytes (contract section 14). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/**
 * The Standard Webhooks headers of one attempt. Each secret signs (during a
 * rotation the previous one too): the signatures are space-separated, and a
 * receiver that knows either secret verifies.
 */
export function signatureHeaders(secrets: string[], id: string, body: string, at: Date): Record<string, string> {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((s) => new Webhook(s).sign(id, at, body)).join(" "),
  };
}
