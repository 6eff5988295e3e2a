import type { Queryable } from "@gatehouse/db";
import { domainError } from "@gatehouse/errors";
import type { ConfirmationJob } from "@gatehouse/jobs";
import type { Enqueue } from "../ports.ts";

/** The deliveries of a change, queued inside its transaction. */
export interface Deliveries {
  /**
   * Hands the job to the queue inside the transaction: a queue that cannot
   * take it rolls the change back (CONFIRMATION_NOT_QUEUED, 502), and the
   * worker waits for the commit before sending (jobs' gatedProcessor).
   */
  queue(job: ConfirmationJob): Promise<void>;
}

export function deliveriesOver(q: Queryable, enqueue: Enqueue): Deliveries {
  return {
    async queue(job) {
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
