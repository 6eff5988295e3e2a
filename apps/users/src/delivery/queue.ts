import type { Queryable } from "@gatehouse/db";
import { domainError } from "@gatehouse/errors";
import type { ConfirmationJob } from "@gatehouse/jobs";
import type { Enqueue } from "../ports.ts";
import type { SmsGate } from "./sms-gate.ts";

/** The deliveries of a change, queued inside its transaction. */
export interface Deliveries {
  /**
   * Hands the job to the queue inside the transaction: a queue that cannot
   * take it rolls the change back (CONFIRMATION_NOT_QUEUED, 502), and the
   * worker waits for the commit before sending (jobs' gatedProcessor).
   * A text message first passes the SMS limits (SMS_LIMIT, 429), counted
   * against the application of `origin.entrypointId`.
   */
  queue(job: ConfirmationJob, origin?: { entrypointId?: string }): Promise<void>;
}

export function deliveriesOver(q: Queryable, enqueue: Enqueue, sms?: SmsGate): Deliveries {
  return {
    async queue(job, origin) {
      if (job.channel === "sms") await sms?.take(job.to, origin?.entrypointId);
      try {
        await enqueue(job, q);
      } catch (err) {
        const key = job.channel === "email" ? "email" : "phone_number";
        const failure = domainError("CONFIRMATION_NOT_QUEUED", undefined, { metadata: { key } });
        failure.cause = err; // for the logs; never sent to the caller
        throw failure;
      }
    },
  };
}
