import type { DeliveryChannel, DeliveryLocale } from "@gatehouse/jobs";

/** A message ready to hand to a channel. `code`, `link` and `text` are secret: only the outbox channel (no SMTP/SMS configured: development) logs them. */
export interface OutgoingMessage {
  deliveryId: string;
  channel: DeliveryChannel;
  to: string;
  locale: DeliveryLocale;
  subject: string;
  text: string;
  code: string;
  link: string | undefined;
}

/** Throws to retry, UnrecoverableError when a retry cannot help. */
export interface Channel {
  send(message: OutgoingMessage): Promise<void>;
  close(): Promise<void>;
}

/** Keeps enough of a recipient to recognise it in logs without printing it whole. */
export function maskRecipient(to: string): string {
  const at = to.indexOf("@");
  if (at > 0) return `${to.slice(0, 1)}***${to.slice(at)}`;
  return to.length > 4 ? `***${to.slice(-4)}` : "***";
}
