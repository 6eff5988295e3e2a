import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "@gatehouse/config";
import { memoryQueue, type MemoryDeliveryQueue, type StillWanted } from "@gatehouse/jobs";
import { createConfirmationWorker, type ConfirmationWorker } from "../src/index.ts";
import { capturedLogger, fastJobOptions, makeJob, sleep, testKeys, waitFor } from "./helpers.ts";

// The embedded default: no REDIS_URL, SMTP_URL or SMS_WEBHOOK_URL. The in-process
// queue drives the same processor and the messages land in DATA_DIR/outbox/.

const keys = testKeys();
let worker: ConfirmationWorker | undefined;
let queue: MemoryDeliveryQueue | undefined;

afterEach(async () => {
  await worker?.close();
  await queue?.close();
});

async function setup(isStillWanted: StillWanted = async () => "send") {
  const log = capturedLogger();
  const dataDir = await mkdtemp(join(tmpdir(), "cw-outbox-"));
  const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: "http://localhost:8080" });
  queue = memoryQueue({ jobOptions: fastJobOptions });
  worker = await createConfirmationWorker({ config, keys, logger: log.logger, isStillWanted, memoryQueue: queue });
  return { log, outbox: join(dataDir, "outbox"), queue };
}

const readJson = async (file: string) => JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;

describe("outbox when no channel is configured (memory queue)", () => {
  it("writes one JSON file per message, and logs its code and link (development mode) but not the full recipient", async () => {
    const { log, outbox, queue } = await setup();
    const email = makeJob(keys, { locale: "es", to: "ana@example.com" });
    const sms = makeJob(keys, { channel: "sms", to: "+34600111222" });
    await queue.enqueue(email.job);
    await queue.enqueue(sms.job);
    await waitFor(
      async () => (await readdir(outbox).catch(() => [] as string[])).length === 2,
      5000,
      "two outbox files",
    );
    expect((await readdir(outbox)).sort()).toEqual(
      [`${email.job.deliveryId}.json`, `${sms.job.deliveryId}.json`].sort(),
    );

    const mail = await readJson(join(outbox, `${email.job.deliveryId}.json`));
    expect(mail).toMatchObject({
      channel: "email",
      to: "ana@example.com",
      locale: "es",
      code: email.code,
      subject: "Confirma tu cuenta",
    });
    expect(mail.link).toBe(`http://localhost:8080/activityid/v1/user/confirm?token=${email.linkToken}`);
    expect(mail.text).toContain(email.code);
    expect(mail.text).toContain(mail.link as string);

    const text = await readJson(join(outbox, `${sms.job.deliveryId}.json`));
    expect(text).toMatchObject({
      channel: "sms",
      to: "+34600111222",
      code: sms.code,
      text: `Your confirmation code is ${sms.code}`,
    });

    const logged = log.text();
    expect(logged).toContain(
      `email \\"Confirma tu cuenta\\" to a***@example.com written to the outbox (no SMTP_URL): code ${email.code}, link ${mail.link}`,
    );
    expect(logged).toContain(`SMS to ***1222 written to the outbox (no SMS_WEBHOOK_URL): code ${sms.code}`);
    expect(logged).toContain("no SMTP_URL or SMS_WEBHOOK_URL: emails and text messages are written to");
    for (const recipient of ["ana@example.com", "+34600111222"]) expect(logged).not.toContain(recipient);
  });

  it("runs the same gate: waits for the commit, then sends; drops what was rolled back", async () => {
    let committed = false;
    const { outbox, queue } = await setup(async (id) => (id.startsWith("drop") ? "drop" : committed ? "send" : "wait"));
    const slow = makeJob(keys, { deliveryId: "slow-1" });
    const dropped = makeJob(keys, { deliveryId: "drop-1" });
    await queue.enqueue(slow.job);
    await queue.enqueue(dropped.job);
    await sleep(300);
    expect(await readdir(outbox).catch(() => [] as string[])).toEqual([]);
    committed = true;
    await waitFor(
      async () => (await readdir(outbox).catch(() => [] as string[])).includes("slow-1.json"),
      5000,
      "slow delivery",
    );
    expect(await readdir(outbox)).toEqual(["slow-1.json"]);
    expect(queue.deadLetters()).toEqual([]);
  });

  it("a repeated send of one delivery (a retry after a crash) finds its message and writes nothing again", async () => {
    const { outbox, log } = await setup();
    const { job } = makeJob(keys, { deliveryId: "again-1" });
    await worker!.processor(job, 1);
    const first = await readFile(join(outbox, "again-1.json"), "utf8");
    await sleep(5);
    await worker!.processor(job, 2);
    expect(await readdir(outbox)).toEqual(["again-1.json"]);
    expect(await readFile(join(outbox, "again-1.json"), "utf8")).toBe(first);
    expect(log.text()).toContain("already in the outbox");
  });

  it("removes at start the temporary files left by a writer that died", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "cw-outbox-tmp-"));
    const outbox = join(dataDir, "outbox");
    await mkdir(outbox, { recursive: true });
    await writeFile(join(outbox, "dead.json.1.tmp"), "{");
    await writeFile(join(outbox, "dead.json.2.tmp"), "{");
    await writeFile(join(outbox, "kept.json"), "{}");
    const log = capturedLogger();
    queue = memoryQueue({ jobOptions: fastJobOptions });
    worker = await createConfirmationWorker({
      config: loadConfig({ DATA_DIR: dataDir }),
      keys,
      logger: log.logger,
      isStillWanted: async () => "send",
      memoryQueue: queue,
    });
    await waitFor(async () => (await readdir(outbox)).length === 1, 5000, "temp files removed");
    expect(await readdir(outbox)).toEqual(["kept.json"]);
  });

  it("dead-letters at once a job sealed with another key", async () => {
    const { outbox, queue } = await setup();
    const { job } = makeJob(testKeys());
    await queue.enqueue(job);
    await waitFor(() => queue.deadLetters().length === 1, 5000, "dead letter");
    expect(queue.deadLetters()[0]).toMatchObject({ attemptsMade: 1, reason: "sealed secrets cannot be opened" });
    expect(await readdir(outbox).catch(() => [] as string[])).toEqual([]);
  });
});
