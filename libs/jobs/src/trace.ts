import { activeTracer, inSpan } from "@gatehouse/logging";
import type { ConfirmationJob } from "./names.ts";

// A confirmation delivery joins the trace of the request that queued it
// (contract section 16): the job carries the W3C trace context, and the
// worker's span continues it, on BullMQ and on the in-process queue alike.

/** Queues `job` in a producer span, with the trace context in the job. */
export function tracedEnqueue(job: ConfirmationJob, add: (job: ConfirmationJob) => Promise<void>): Promise<void> {
  return inSpan("confirmation enqueue", "producer", () => {
    const trace: Record<string, string> = {};
    activeTracer()?.inject(trace);
    return add(Object.keys(trace).length ? { ...job, trace } : job);
  });
}

/** Runs one attempt of a job in a consumer span of the trace it carries. */
export function tracedAttempt(job: ConfirmationJob, attempt: number, run: () => Promise<void>): Promise<void> {
  return inSpan("confirmation delivery", "consumer", run, {
    parent: job.trace,
    attributes: {
      "messaging.operation.type": "process",
      "gatehouse.channel": job.channel,
      "gatehouse.attempt": attempt,
    },
  });
}
