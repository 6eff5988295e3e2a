import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Queue } from "bullmq";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "@gatehouse/config";
import { bullmqQueue, bullPrefix, QUEUE_NAME } from "@gatehouse/jobs";
import { redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { createConfirmationWorker } from "../src/index.ts";
import { capturedLogger, fastJobOptions, makeJob, sleep, startSmtpSink, testKeys, waitFor } from "./helpers.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function spawnHungWorker(prefix: string): { child: ChildProcess; output: () => string } {
  const child = spawn(
    process.execPath,
    [
      "--conditions=@gatehouse/source",
      "--experimental-transform-types",
      "--disable-warning=ExperimentalWarning",
      join(import.meta.dirname, "fixtures/hung-worker.ts"),
    ],
    { env: { ...process.env, REDIS_URL: redisTestUrl(), REDIS_PREFIX: prefix }, stdio: ["ignore", "pipe", "inherit"] },
  );
  let out = "";
  child.stdout!.on("data", (c: Buffer) => (out += String(c)));
  cleanups.push(async () => child.exitCode === null && child.kill("SIGKILL"));
  return { child, output: () => out };
}

describe("worker killed mid-delivery", () => {
  it("the stalled job is picked up by the next worker and the message arrives", async () => {
    const keys = testKeys();
    const prefix = uniquePrefix();
    const smtp = await startSmtpSink();
    cleanups.push(smtp.close);
    const queue = bullmqQueue({ redisUrl: redisTestUrl(), prefix, jobOptions: fastJobOptions });
    const inspector = new Queue(QUEUE_NAME, { connection: { url: redisTestUrl() }, prefix: bullPrefix(prefix) });
    cleanups.push(async () => {
      await queue.close();
      await inspector.obliterate({ force: true });
      await inspector.close();
    });

    const hung = spawnHungWorker(prefix);
    await waitFor(() => hung.output().includes("ready"), 20_000, "hung worker ready");
    const { job, code } = makeJob(keys);
    await queue.enqueue(job);
    await waitFor(() => hung.output().includes(`active ${job.deliveryId}`), 10_000, "job taken by the hung worker");
    hung.child.kill("SIGKILL");
    await new Promise((r) => hung.child.once("exit", r));
    expect(await inspector.getActiveCount()).toBe(1); // still held by the dead worker
    await sleep(200);
    expect(smtp.mails).toHaveLength(0);

    const log = capturedLogger();
    const config = loadConfig({
      REDIS_URL: redisTestUrl(),
      REDIS_PREFIX: prefix,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      DATA_DIR: await mkdtemp(join(tmpdir(), "cw-crash-")),
    });
    const worker = await createConfirmationWorker({
      config,
      keys,
      logger: log.logger,
      isStillWanted: async () => "send",
      worker: { stalledInterval: 300 },
    });
    cleanups.push(() => worker.close());
    await waitFor(() => smtp.mails.length === 1, 15_000, "mail after recovery");
    expect(smtp.mails[0]!.body).toContain(code);
    await waitFor(async () => (await inspector.getCompletedCount()) === 1, 5000, "job completed");
    await sleep(300);
    expect(smtp.mails).toHaveLength(1);
    expect(log.text()).not.toContain(code);
  });
});
