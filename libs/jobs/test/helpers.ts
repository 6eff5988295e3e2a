import { randomBytes, randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import pino from "pino";
import type { Logger } from "@gatehouse/logging";
import { KeyRing } from "@gatehouse/secrets";
import { sealJobSecrets, type ConfirmationJob } from "../src/index.ts";

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitFor(
  cond: () => boolean | Promise<boolean>,
  timeoutMs = 15_000,
  what = "condition",
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** A pino logger whose output the test can read back. */
export function capturedLogger(): { logger: Logger; lines: () => string[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(String(chunk));
      cb();
    },
  });
  return { logger: pino({ level: "debug" }, stream), lines: () => chunks.join("").split("\n").filter(Boolean) };
}

export const testKeys = () => new KeyRing(randomBytes(32));

export function makeJob(keys: KeyRing, over: Partial<ConfirmationJob> = {}, code = "123456"): ConfirmationJob {
  const deliveryId = over.deliveryId ?? randomUUID();
  return {
    deliveryId,
    userId: "u-1",
    channel: "email",
    to: "ana@example.com",
    locale: "en",
    purpose: "register",
    sealedSecrets: sealJobSecrets(keys, deliveryId, { code, linkToken: "link-token" }),
    ...over,
  };
}

/** Small backoff so retries happen within a test. */
export const fastJobOptions = { backoff: { type: "exponential" as const, delay: 100, jitter: 0.5 } };
