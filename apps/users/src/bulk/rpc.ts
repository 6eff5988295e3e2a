import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { auditContext } from "@gatehouse/admin";
import { domainError } from "@gatehouse/errors";
import type { Logger } from "@gatehouse/logging";
import {
  ImportLineResultSchema,
  UserImportJobSchema,
  type UsersAdminService,
  type UserImportJob,
} from "@gatehouse/proto";
import { ADMIN_READ_SCOPES, ADMIN_WRITE_SCOPES, INTERNAL_SCOPE, kPrincipal } from "@gatehouse/rpc";
import { exportPage, type ExportDeps } from "./export.ts";
import { finishImport, getImport, importLines, startImport, type ImportDeps } from "./jobs.ts";
import type { ImportJobRow, LineResult } from "./store.ts";

const READ = ["admin:read", "admin"];
const WRITE = ["admin:write", "admin", INTERNAL_SCOPE];

/** Imports write (the CLI too, as an internal caller); progress and the export read (hashes need admin:write). */
export const bulkPolicy = {
  startUserImport: WRITE,
  importUserLines: WRITE,
  finishUserImport: WRITE,
  getUserImport: [...READ, INTERNAL_SCOPE],
  // admin:write alone is enough for the export with hashes; the handler checks which the request needs.
  exportUsers: [...READ, "admin:write"],
};

function toJob(j: ImportJobRow, results: LineResult[] = []): UserImportJob {
  return create(UserImportJobSchema, {
    id: j.id,
    status: j.status,
    entrypointId: j.entrypointId,
    lines: j.lines,
    imported: j.imported,
    skipped: j.skipped,
    failed: j.failed,
    results: results.map((r) => create(ImportLineResultSchema, { ...r, userId: r.userId ?? "" })),
    createTime: timestampFromDate(j.createdAt),
    ...(j.finishedAt ? { finishTime: timestampFromDate(j.finishedAt) } : {}),
  });
}

/** Hashes need admin:write (or admin); the rest of the export admin:read (or admin). */
function mayExport(ctx: HandlerContext, hashes: boolean): boolean {
  const scopes = ctx.values.get(kPrincipal)?.scopes;
  return (hashes ? ADMIN_WRITE_SCOPES : ADMIN_READ_SCOPES).some((s) => scopes?.has(s));
}

type BulkMethods = Pick<
  ServiceImpl<typeof UsersAdminService>,
  "startUserImport" | "importUserLines" | "finishUserImport" | "getUserImport" | "exportUsers"
>;

/** The bulk import and export of contract section 15 (UsersAdminService). */
export function bulkMethods(deps: ImportDeps & ExportDeps & { logger: Logger }): BulkMethods {
  return {
    async startUserImport(req, ctx) {
      const who = auditContext(ctx);
      const job = await startImport(deps, { entrypointId: req.entrypointId, firebase: req.firebaseParams }, who);
      deps.logger.info({ job: job.id, entrypoint: job.entrypointId, actor: who.actor }, "user import started");
      return { job: toJob(job) };
    },
    async importUserLines(req) {
      const job = await importLines(deps, { ...req, firebase: req.firebaseParams });
      return { job: toJob(job) };
    },
    async finishUserImport(req) {
      const job = await finishImport(deps, req.jobId);
      const { imported, skipped, failed } = job;
      deps.logger.info({ job: job.id, imported, skipped, failed, actor: job.actor }, "user import done");
      return { job: toJob(job) };
    },
    async getUserImport(req) {
      const { job, results } = await getImport(deps, req.jobId);
      return { job: toJob(job, results) };
    },
    async exportUsers(req, ctx) {
      if (!mayExport(ctx, req.includeHashes)) throw domainError("INSUFFICIENT_SCOPE");
      const who = auditContext(ctx);
      const page = await exportPage(deps, req, who);
      return { lines: page.lines, nextPageToken: page.next };
    },
  };
}
