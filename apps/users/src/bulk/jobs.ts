import { randomBytes } from "node:crypto";
import type { AuditContext, AuditLog } from "@gatehouse/admin";
import { domainError, validationError } from "@gatehouse/errors";
import type { AssertionCatalog, EntrypointDirectory, ResolvedEntrypoint } from "../ports.ts";
import { catalogFor } from "../terms/catalog.ts";
import type { Transactional } from "../transactional.ts";
import { readFirebaseParams, type ForeignHashes, type ImportContext } from "../verifiers/password/hashes/index.ts";
import { importBatch, type BatchStores } from "./batch.ts";
import type { ImportJobRow, LineResult } from "./store.ts";

/**
 * A running job whose feeder has given no sign of life for this long is
 * finished as it stands when it is read: the process feeding it is gone (a
 * gateway killed mid-import, e.g. by a rolling restart), and nothing else
 * would ever finish it. Feeders move it at every batch and, while an upload
 * is still being spooled, every IMPORT_HEARTBEAT_MS (@gatehouse/admin).
 */
export const IMPORT_STALE_MS = 5 * 60_000;

/** More lines than this in one call would hold a transaction (and its memory) too long. */
export const MAX_BATCH_LINES = 5000;
/** The results a job answers with: enough to fix a file, bounded for a file that is all wrong. */
export const MAX_RESULTS = 10_000;

export interface ImportDeps {
  data: Transactional<BatchStores & { audit: AuditLog }>;
  entrypoints: EntrypointDirectory;
  catalog: AssertionCatalog;
  hashes: ForeignHashes;
}

/** `?firebase=` of the import: empty, or Firebase's project parameters (VALIDATION_FAILED otherwise). */
export function importContext(firebase: string): ImportContext {
  if (!firebase) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(firebase);
  } catch {
    parsed = undefined;
  }
  const params = readFirebaseParams(parsed);
  if (!params) throw validationError([{ field: "firebase", code: "invalid_value" }]);
  return { firebase: params };
}

async function entrypointOf(deps: ImportDeps, id: string): Promise<ResolvedEntrypoint> {
  if (!id) throw validationError([{ field: "entrypoint", code: "required" }]);
  const resolved = await deps.entrypoints(id);
  if (!resolved) throw domainError("ENTRYPOINT_NOT_FOUND");
  return resolved;
}

/** Opens a job through an entry point, audited as `users.import`. */
export async function startImport(
  deps: ImportDeps,
  req: { entrypointId: string; firebase: string },
  who: AuditContext,
): Promise<ImportJobRow> {
  importContext(req.firebase);
  const resolved = await entrypointOf(deps, req.entrypointId);
  const id = randomBytes(12).toString("hex");
  return deps.data.tx(async (s) => {
    const job = await s.imports.createJob({
      id,
      entrypointId: resolved.entrypoint.id,
      clientId: resolved.clientId,
      actor: who.actor,
    });
    await s.audit.record({
      ...who,
      action: "users.import",
      target: id,
      details: { entrypoint: resolved.entrypoint.id },
    });
    return job;
  });
}

/** Imports one batch of a running job's lines (bulk/batch.ts). */
export async function importLines(
  deps: ImportDeps,
  req: { jobId: string; firstLine: number; lines: string[]; firebase: string },
): Promise<ImportJobRow> {
  if (req.lines.length > MAX_BATCH_LINES) throw validationError([{ field: "lines", code: "too_long" }]);
  if (req.firstLine < 1) throw validationError([{ field: "firstLine", code: "invalid_value" }]);
  const context = importContext(req.firebase);
  const job = await deps.data.imports.job(req.jobId);
  if (!job) throw domainError("IMPORT_NOT_FOUND");
  if (job.status !== "running") throw domainError("IMPORT_FINISHED");
  const resolved = await entrypointOf(deps, job.entrypointId);
  const catalog = await catalogFor(deps.catalog, resolved.entrypoint);
  return importBatch(deps.data, {
    job,
    hashes: deps.hashes,
    entrypoint: resolved.entrypoint,
    catalog,
    context,
    firstLine: req.firstLine,
    lines: req.lines,
  });
}

/**
 * Marks the job done; its counts are audited as `users.import.done` in the
 * name of who started it (the batches and the end may come from the gateway
 * itself, after the operator's request was answered).
 */
export async function finishImport(
  deps: ImportDeps,
  jobId: string,
  opts: { staleBefore?: Date } = {},
): Promise<ImportJobRow> {
  return deps.data.tx(async (s) => {
    const before = await s.imports.job(jobId, true);
    if (!before) throw domainError("IMPORT_NOT_FOUND");
    // Finishing a stale job: only if no batch moved it since it was read (under the row lock).
    if (opts.staleBefore && (before.status !== "running" || before.updatedAt >= opts.staleBefore)) return before;
    const job = (await s.imports.finish(jobId))!;
    if (before.status === "running") {
      const { lines, imported, skipped, failed } = job;
      await s.audit.record({
        actor: job.actor,
        action: "users.import.done",
        target: jobId,
        details: { lines, imported, skipped, failed, ...(opts.staleBefore ? { interrupted: true } : {}) },
      });
    }
    return job;
  });
}

/** A job with the lines skipped or failed (at most MAX_RESULTS). */
export async function getImport(
  deps: ImportDeps,
  jobId: string,
): Promise<{ job: ImportJobRow; results: LineResult[] }> {
  let job = await deps.data.imports.job(jobId);
  if (!job) throw domainError("IMPORT_NOT_FOUND");
  const staleBefore = new Date(Date.now() - IMPORT_STALE_MS);
  if (job.status === "running" && job.updatedAt < staleBefore) job = await finishImport(deps, jobId, { staleBefore });
  return { job, results: await deps.data.imports.results(jobId, MAX_RESULTS) };
}
