import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import type { Client } from "@connectrpc/connect";
import type { UserImportJob, UsersAdminService } from "@gatehouse/proto";

/** Lines per ImportUserLines call: one transaction each, a few hundred kilobytes of memory. */
export const IMPORT_BATCH_LINES = 1000;

type Bulk = Pick<Client<typeof UsersAdminService>, "importUserLines" | "finishUserImport">;
type CallOptions = Parameters<Client<typeof UsersAdminService>["importUserLines"]>[1];

/**
 * How often a feeder still spooling an upload tells its job it is alive: the
 * users service finishes a running job that nothing moved for 5 minutes
 * (its feeder died), and a slow upload must not look dead.
 */
export const IMPORT_HEARTBEAT_MS = 30_000;

/** Runs `work` (e.g. spooling the upload) while an empty batch every `everyMs` moves the job's clock. */
export async function keepingJobAlive<T>(
  users: Pick<Bulk, "importUserLines">,
  job: { id: string; firebase: string },
  work: () => Promise<T>,
  everyMs = IMPORT_HEARTBEAT_MS,
  options?: CallOptions,
): Promise<T> {
  const beat = setInterval(() => {
    // A lost beat is harmless: the next one, or the first batch, moves the clock.
    users
      .importUserLines({ jobId: job.id, firstLine: 1, lines: [], firebaseParams: job.firebase }, options)
      .catch(() => undefined);
  }, everyMs);
  try {
    return await work();
  } finally {
    clearInterval(beat);
  }
}

/**
 * Feeds an NDJSON file to a running import job, batch after batch (one
 * transaction each), and finishes the job: the gateway's import (its spooled
 * body) and the CLI's `users import` take this same path. Blank lines are
 * numbered and skipped by the service. Memory holds one batch at a time.
 */
export async function importFile(
  users: Bulk,
  job: { id: string; firebase: string },
  file: string,
  options?: CallOptions,
): Promise<UserImportJob | undefined> {
  const input = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let lineNo = 0;
  let first = 1;
  let batch: string[] = [];
  const flush = async () => {
    if (batch.some((l) => l !== ""))
      await users.importUserLines(
        { jobId: job.id, firstLine: first, lines: batch, firebaseParams: job.firebase },
        options,
      );
    batch = [];
    first = lineNo + 1;
  };
  try {
    for await (const line of input) {
      lineNo++;
      batch.push(line.trim());
      if (batch.length >= IMPORT_BATCH_LINES) await flush();
    }
    await flush();
  } finally {
    input.close();
  }
  return (await users.finishUserImport({ jobId: job.id }, options)).job;
}
