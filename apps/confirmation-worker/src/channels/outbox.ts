import { randomUUID } from "node:crypto";
import { link, mkdir, readdir, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "@gatehouse/logging";
import { maskRecipient, type Channel, type OutgoingMessage } from "./channel.ts";

// Used when SMTP_URL / SMS_WEBHOOK_URL is absent (development, embedded default):
// one JSON file per message in DATA_DIR/outbox/, named after the delivery id.
// The file is written whole under a temporary name and then linked into place,
// which fails when the name exists: a delivery retried after a crash (sent, but
// not yet marked done) finds its message there and does not write it twice.
// The log line carries the code and link too (contract section 1: with no
// SMTP_URL messages go to the log and the outbox), so a developer reads them
// where npm start prints; a configured channel never comes here.

/** The variable whose absence sends a channel's messages here. */
const MISSING: Record<OutgoingMessage["channel"], string> = { email: "SMTP_URL", sms: "SMS_WEBHOOK_URL" };

/** "email \"Confirm your account\" to a***@example.com: code 123456, link http://…" */
function logLine(msg: OutgoingMessage): string {
  const what =
    msg.channel === "sms" ? `SMS to ${maskRecipient(msg.to)}` : `email "${msg.subject}" to ${maskRecipient(msg.to)}`;
  const parts = [msg.code ? `code ${msg.code}` : "", msg.link ? `link ${msg.link}` : ""].filter(Boolean);
  return `${what} written to the outbox (no ${MISSING[msg.channel]})${parts.length ? `: ${parts.join(", ")}` : ""}`;
}

export function outboxFile(dir: string, deliveryId: string): string {
  return join(dir, `${deliveryId.replace(/[^A-Za-z0-9_.-]/g, "_")}.json`);
}

/**
 * Removes the temporary files of writes that died (kill -9 between write and
 * link), at start. A file of a concurrent writer (another worker on the same
 * outbox) cannot be told apart; removing it only makes that one send fail and
 * be retried, and the message is then written whole.
 */
export async function removeTempFiles(dir: string): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.endsWith(".tmp")) continue;
    await unlink(join(dir, name)).then(
      () => removed.push(name),
      () => undefined,
    );
  }
  return removed;
}

export function outboxChannel(opts: { dir: string; logger: Logger }): Channel {
  const cleaned = removeTempFiles(opts.dir).then(
    (removed) =>
      removed.length &&
      opts.logger.info({ dir: opts.dir, removed: removed.length }, "stale outbox temporary files removed"),
    (err: unknown) => opts.logger.warn({ err }, "outbox temporary files not cleaned"),
  );
  return {
    async send(msg: OutgoingMessage) {
      await cleaned;
      await mkdir(opts.dir, { recursive: true, mode: 0o700 });
      const file = outboxFile(opts.dir, msg.deliveryId);
      const tmp = `${file}.${randomUUID()}.tmp`;
      const body = { ...msg, createdAt: new Date().toISOString() };
      const facts = {
        deliveryId: msg.deliveryId,
        channel: msg.channel,
        to: maskRecipient(msg.to),
        file,
        code: msg.code || undefined,
        link: msg.link,
      };
      await writeFile(tmp, JSON.stringify(body, null, 2) + "\n", { mode: 0o600 });
      try {
        await link(tmp, file);
        opts.logger.info(facts, logLine(msg));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
        opts.logger.info(
          { deliveryId: msg.deliveryId, file },
          "message already in the outbox (a retried delivery); not written again",
        );
      } finally {
        await unlink(tmp).catch(() => undefined);
      }
    },
    close: async () => {},
  };
}
