import {
  gatedProcessor,
  openJobSecrets,
  UnrecoverableError,
  type ConfirmationJob,
  type DeliveryChannel,
  type DeliveryProcessor,
  type JobSecrets,
  type StillWanted,
} from "@gatehouse/jobs";
import type { Logger } from "@gatehouse/logging";
import type { KeyRing } from "@gatehouse/secrets";
import type { Channel, OutgoingMessage } from "./channels/channel.ts";
import { emailMessage, linkFor, smsText } from "./messages.ts";

export interface ProcessorDeps {
  keys: KeyRing;
  channels: Record<DeliveryChannel, Channel>;
  isStillWanted: StillWanted;
  logger: Logger;
  /** {base_url} of the contract: the confirmation link points there. */
  baseUrl: string;
}

export function buildMessage(job: ConfirmationJob, secrets: JobSecrets, baseUrl: string): OutgoingMessage {
  const common = {
    deliveryId: job.deliveryId,
    channel: job.channel,
    to: job.to,
    locale: job.locale,
    code: secrets.code,
  };
  const link = linkFor(job.purpose, baseUrl, secrets.linkToken, job.locale);
  // An SMS carries the code; only an activation, which has no code, carries its link.
  if (job.channel === "sms") {
    const smsLink = job.purpose === "activation" ? link : undefined;
    return {
      ...common,
      subject: "",
      text: smsText(job.locale, secrets.code, job.purpose, smsLink ?? ""),
      link: smsLink,
    };
  }
  return { ...common, ...emailMessage(job.locale, job.purpose, secrets.code, link ?? ""), link };
}

/** Opens the sealed code, builds the localized message and hands it to the job's channel. */
export function createProcessor(deps: ProcessorDeps): DeliveryProcessor {
  return gatedProcessor(
    deps.isStillWanted,
    async (job, { attempt }) => {
      let secrets: JobSecrets;
      try {
        secrets = openJobSecrets(deps.keys, job);
      } catch {
        // Another SECRET_KEY or a tampered payload: no retry can open it.
        throw new UnrecoverableError("sealed secrets cannot be opened");
      }
      const channel = deps.channels[job.channel];
      if (!channel) throw new UnrecoverableError(`unknown channel ${String(job.channel)}`);
      await channel.send(buildMessage(job, secrets, deps.baseUrl));
      deps.logger.info(
        { deliveryId: job.deliveryId, channel: job.channel, purpose: job.purpose, attempt },
        "confirmation delivered",
      );
    },
    deps.logger,
  );
}
