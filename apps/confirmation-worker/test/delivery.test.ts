import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Queue } from "bullmq";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "@gatehouse/config";
import { bullmqQueue, bullPrefix, QUEUE_NAME, type DeliveryQueue } from "@gatehouse/jobs";
import { redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { createConfirmationWorker, type ConfirmationWorker } from "../src/index.ts";
import {
  capturedLogger,
  fastJobOptions,
  freePort,
  makeJob,
  sleep,
  startHttpSink,
  startSmtpSink,
  testKeys,
  waitFor,
} from "./helpers.ts";

// The BullMQ topology: real Redis, a real SMTP server and an HTTP sink for SMS.

const keys = testKeys();
const log = capturedLogger();
const codes: string[] = [];
const cleanups: (() => Promise<unknown>)[] = [];

async function setup(env: { SMTP_URL?: string; SMS_WEBHOOK_URL?: string }) {
  const prefix = uniquePrefix();
  const config = loadConfig({
    REDIS_URL: redisTestUrl(),
    REDIS_PREFIX: prefix,
    DATA_DIR: await mkdtemp(join(tmpdir(), "cw-")),
    PUBLIC_URL: "https://id.example.test",
    ...env,
  });
  const worker: ConfirmationWorker = await createConfirmationWorker({
    config,
    keys,
    logger: log.logger,
    isStillWanted: async () => "send",
  });
  const queue: DeliveryQueue = bullmqQueue({ redisUrl: redisTestUrl(), prefix, jobOptions: fastJobOptions });
  const inspector = new Queue(QUEUE_NAME, { connection: { url: redisTestUrl() }, prefix: bullPrefix(prefix) });
  cleanups.push(async () => {
    await worker.close();
    await queue.close();
    await inspector.obliterate({ force: true });
    await inspector.close();
  });
  expect(await worker.ready()).toBe(true);
  return { queue, inspector };
}

function job(over: Parameters<typeof makeJob>[1] = {}) {
  const made = makeJob(keys, over);
  codes.push(made.code, made.linkToken);
  return made;
}

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c(); // worker (and its SMTP pool) before the sinks
});

afterAll(() => {
  // The code and link token were delivered many times above, and logged never.
  const text = log.text();
  expect(text).toContain("confirmation delivered");
  for (const secret of codes) expect(text).not.toContain(secret);
});

describe("email over SMTP", () => {
  it.each([
    ["en", "Confirm your account", "Your confirmation code is: "],
    ["es", "Confirma tu cuenta", "Tu código de confirmación es: "],
  ] as const)("delivers the code and the link in %s", async (locale, subject, intro) => {
    const smtp = await startSmtpSink();
    cleanups.push(smtp.close);
    const { queue } = await setup({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
    const { job: j, code, linkToken } = job({ locale, to: "ana@example.com" });
    await queue.enqueue(j);
    await waitFor(() => smtp.mails.length === 1, 10_000, "mail");
    const mail = smtp.mails[0]!;
    expect(mail.to).toEqual(["ana@example.com"]);
    expect(mail.headers.subject).toBe(subject);
    expect(mail.headers["message-id"]).toBe(`<confirm-${j.deliveryId}@id.example.test>`);
    expect(mail.headers.from).toContain("no-reply@id.example.test");
    expect(mail.body).toContain(`${intro}${code}`);
    expect(mail.body).toContain(`https://id.example.test/activityid/v1/user/confirm?token=${linkToken}`);
  });

  it("delivers after retries when the SMTP server is down at first", async () => {
    const port = await freePort();
    const { queue } = await setup({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    const { job: j, code } = job();
    await queue.enqueue(j);
    await waitFor(
      () => log.text().includes(`"deliveryId":"${j.deliveryId}"`) && log.text().includes("will retry"),
      10_000,
      "a failed attempt",
    );
    const smtp = await startSmtpSink(port);
    cleanups.push(smtp.close);
    await waitFor(() => smtp.mails.length === 1, 15_000, "mail after retries");
    expect(smtp.mails[0]!.body).toContain(code);
  });
});

describe("SMS over the webhook", () => {
  it("posts {to, text, code} with the delivery id as idempotency key", async () => {
    const sink = await startHttpSink([200]);
    cleanups.push(sink.close);
    const { queue } = await setup({ SMS_WEBHOOK_URL: sink.url });
    const { job: j, code } = job({ channel: "sms", to: "+34600111222", locale: "es" });
    await queue.enqueue(j);
    await waitFor(() => sink.requests.length === 1, 10_000, "sms");
    expect(sink.requests[0]!.body).toEqual({ to: "+34600111222", text: `Tu código de confirmación es ${code}`, code });
    expect(sink.requests[0]!.headers["idempotency-key"]).toBe(j.deliveryId);
    expect(sink.requests[0]!.headers["content-type"]).toBe("application/json");
  });

  it("dead-letters a message the webhook refuses with 400, without retrying", async () => {
    const sink = await startHttpSink([400]);
    cleanups.push(sink.close);
    const { queue, inspector } = await setup({ SMS_WEBHOOK_URL: sink.url });
    const { job: j } = job({ channel: "sms", to: "+34600111222" });
    await queue.enqueue(j);
    await waitFor(async () => (await inspector.getFailedCount()) === 1, 10_000, "dead letter");
    const [failed] = await inspector.getFailed();
    expect(failed!.data.deliveryId).toBe(j.deliveryId);
    expect(failed!.attemptsMade).toBe(1);
    expect(failed!.failedReason).toBe("SMS webhook refused the message: HTTP 400");
    await sleep(500);
    expect(sink.requests).toHaveLength(1);
    expect(log.text()).toContain("failed for good (dead letter)");
  });

  it("retries 503, 429 and 408 answers until the webhook accepts", async () => {
    const sink = await startHttpSink([503, 429, 408, 200]);
    cleanups.push(sink.close);
    const { queue, inspector } = await setup({ SMS_WEBHOOK_URL: sink.url });
    await queue.enqueue(job({ channel: "sms", to: "+34600111222" }).job);
    await waitFor(async () => (await inspector.getCompletedCount()) === 1, 10_000, "completed");
    expect(sink.requests).toHaveLength(4);
    expect(await inspector.getFailedCount()).toBe(0);
  });
});
