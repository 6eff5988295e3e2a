import { join } from "node:path";
import type { Config } from "@gatehouse/config";
import {
  startDeliveryWorker,
  type DeliveryProcessor,
  type MemoryDeliveryQueue,
  type StillWanted,
  type WorkerHandle,
} from "@gatehouse/jobs";
import type { Logger } from "@gatehouse/logging";
import type { KeyRing } from "@gatehouse/secrets";
import type { Channel } from "./channels/channel.ts";
import { smtpChannel } from "./channels/email.ts";
import { outboxChannel } from "./channels/outbox.ts";
import { smsWebhookChannel } from "./channels/sms.ts";
import { createProcessor } from "./processor.ts";

export { createProcessor, buildMessage } from "./processor.ts";
export { activationLink, confirmationLink, emailMessage, linkFor, smsText } from "./messages.ts";
export { messageIdFor, smtpChannel } from "./channels/email.ts";
export { smsWebhookChannel } from "./channels/sms.ts";
export { outboxChannel, outboxFile } from "./channels/outbox.ts";
export type { Channel, OutgoingMessage } from "./channels/channel.ts";

export interface ConfirmationWorkerDeps {
  config: Config;
  keys: KeyRing;
  logger: Logger;
  isStillWanted: StillWanted;
  /** Embedded default (no REDIS_URL): the in-process queue the producer enqueues into. */
  memoryQueue?: MemoryDeliveryQueue;
  /** From address of the emails; default no-reply@ the public base URL's host. */
  mailFrom?: string;
  worker?: { concurrency?: number; lockDuration?: number; stalledInterval?: number };
}

export interface ConfirmationWorker {
  processor: DeliveryProcessor;
  close(): Promise<void>;
  ready(): Promise<boolean>;
}

/**
 * The confirmation worker: with REDIS_URL a BullMQ worker; without it, the
 * processor runs on the given in-process queue (or, if none is given, is only
 * returned for the launcher to drive).
 */
export async function createConfirmationWorker(deps: ConfirmationWorkerDeps): Promise<ConfirmationWorker> {
  const { config, logger } = deps;
  const outboxDir = join(config.dataDir, "outbox");
  const outbox = outboxChannel({ dir: outboxDir, logger });
  const from = deps.mailFrom ?? `no-reply@${new URL(config.publicBaseUrl).hostname}`;
  const channels: Record<"email" | "sms", Channel> = {
    email: config.smtpUrl ? smtpChannel({ smtpUrl: config.smtpUrl, from }) : outbox,
    sms: config.smsWebhookUrl ? smsWebhookChannel({ url: config.smsWebhookUrl }) : outbox,
  };
  const missing = [config.smtpUrl ? "" : "SMTP_URL", config.smsWebhookUrl ? "" : "SMS_WEBHOOK_URL"].filter(Boolean);
  if (missing.length) {
    const which = missing.length === 2 ? "emails and text messages" : config.smtpUrl ? "text messages" : "emails";
    const facts = { outboxDir, email: Boolean(config.smtpUrl), sms: Boolean(config.smsWebhookUrl) };
    const line = `no ${missing.join(" or ")}: ${which} are written to ${outboxDir} and their codes and links to this log`;
    // Neither configured is the development mode; one channel without the other is likely a deployment's oversight.
    if (missing.length === 2) logger.info(facts, `${line} (development mode)`);
    else logger.warn(facts, line);
  }
  const processor = createProcessor({
    keys: deps.keys,
    channels,
    isStillWanted: deps.isStillWanted,
    logger,
    baseUrl: config.publicBaseUrl,
  });
  let worker: WorkerHandle | undefined;
  if (config.redisUrl) {
    worker = startDeliveryWorker({
      driver: "bullmq",
      redisUrl: config.redisUrl,
      prefix: config.redisPrefix,
      processor,
      logger,
      ...deps.worker,
    });
  } else if (deps.memoryQueue) {
    worker = startDeliveryWorker({
      driver: "memory",
      queue: deps.memoryQueue,
      processor,
      logger,
      concurrency: deps.worker?.concurrency,
    });
  }
  return {
    processor,
    async close() {
      await worker?.close(); // active deliveries finish first
      await Promise.all([...new Set(Object.values(channels))].map((c) => c.close()));
    },
    ready: async () => (worker ? worker.ready() : true),
  };
}
