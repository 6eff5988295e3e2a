import { randomUUID } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "@gatehouse/logging";
import { maskRecipient, type Channel, type OutgoingMessage } from "./channel.ts";

// Used when SMTP_URL / SMS_WEBHOOK_URL is absent (development, embedded default):
// one JSON file per message in DATA_DIR/outbox/, named after the delivery id, so a
// retry overwrites rather than duplicates. The file holds the code; the log does not.

export function outboxFile(dir: string, deliveryId: string): string {
  return join(dir, `${deliveryId.replace(/[^A-Za-z0-9_.-]/g, "_")}.json`);
}

export function outboxChannel(opts: { dir: string; logger: Logger }): Channel {
  return {
    async send(msg: OutgoingMessage) {
      await mkdir(opts.dir, { recursive: true, mode: 0o700 });
      const file = outboxFile(opts.dir, msg.deliveryId);
      const tmp = `${file}.${randomUUID()}.tmp`;
      const body = { ...msg, createdAt: new Date().toISOString() };
      // Temp file + rename: a reader never sees half a message.
      await writeFile(tmp, JSON.stringify(body, null, 2) + "\n", { mode: 0o600 });
      await rename(tmp, file);
      opts.logger.info(
        { deliveryId: msg.deliveryId, channel: msg.channel, to: maskRecipient(msg.to), file },
        "confirmation message written to the outbox (no delivery channel configured)",
      );
    },
    close: async () => {},
  };
}
