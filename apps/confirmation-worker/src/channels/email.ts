import nodemailer from "nodemailer";
import { UnrecoverableError } from "@gatehouse/jobs";
import type { Channel, OutgoingMessage } from "./channel.ts";

// SMTP through a pooled nodemailer transport. Delivery is at-least-once: if the
// worker dies after the server accepted the message but before the job completes,
// the retry sends it again. The Message-ID is derived from the delivery id, so
// such a duplicate carries the same Message-ID and mail clients can fold it.

/** Server answers that mean this recipient or message will never be accepted. */
const PERMANENT_SMTP_CODES = new Set([501, 550, 551, 552, 553, 554]);

export function messageIdFor(deliveryId: string, fromDomain: string): string {
  return `<confirm-${deliveryId}@${fromDomain}>`;
}

function transportUrl(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  const defaults: Record<string, string> = {
    pool: "true",
    connectionTimeout: "10000",
    greetingTimeout: "10000",
    socketTimeout: "30000",
  };
  for (const [k, v] of Object.entries(defaults)) if (!url.searchParams.has(k)) url.searchParams.set(k, v);
  return url.toString();
}

export function smtpChannel(opts: { smtpUrl: string; from: string }): Channel {
  const transport = nodemailer.createTransport(transportUrl(opts.smtpUrl));
  const fromDomain = opts.from.split("@")[1]?.replace(/>.*$/, "") || "localhost";
  return {
    async send(msg: OutgoingMessage) {
      try {
        await transport.sendMail({
          from: opts.from,
          to: msg.to,
          subject: msg.subject,
          text: msg.text,
          messageId: messageIdFor(msg.deliveryId, fromDomain),
          headers: { "X-Gatehouse-Delivery-Id": msg.deliveryId },
        });
      } catch (caught) {
        const err = caught as { responseCode?: number; code?: string; message?: string };
        // Our own message: the server's reply may quote the recipient, never the body.
        const what = `SMTP send failed: ${err.responseCode ?? err.code ?? "error"}`;
        if (err.responseCode && PERMANENT_SMTP_CODES.has(err.responseCode)) throw new UnrecoverableError(what);
        throw new Error(what);
      }
    },
    async close() {
      transport.close();
    },
  };
}
