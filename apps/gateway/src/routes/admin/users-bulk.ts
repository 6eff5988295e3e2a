import { createWriteStream } from "node:fs";
import { unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { importFile, keepingJobAlive } from "@gatehouse/admin";
import { domainError } from "@gatehouse/errors";
import Type from "typebox";
import type { GatewayDeps } from "../../deps.ts";
import { asOperator } from "../../http/admin-call.ts";
import { importJobJson } from "../../http/admin-json.ts";
import { sendContent } from "../../http/envelope.ts";
import { AnyObject, ContentOf } from "../../schemas/admin.ts";
import { errorResponses } from "../../schemas/common.ts";

const admin = { tags: ["admin"], security: [{ bearer: [] }] };
/** The largest import body spooled (about 5 million users of a few hundred bytes). */
export const IMPORT_MAX_BYTES = 2 * 1024 ** 3;
const NDJSON = "application/x-ndjson";

/** Counts the bytes going through and stops past the limit. */
function byteLimit(max: number) {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > max) return done(domainError("PAYLOAD_TOO_LARGE", `at most ${max} bytes`));
      done(null, chunk);
    },
  });
}

/**
 * The bulk import and export of users (contract section 15). An import's
 * body is spooled to a private temporary file as it arrives (never held in
 * memory), the job answers 202 at once, and the file is fed to the users
 * service batch by batch (@gatehouse/admin importFile, the CLI's path too);
 * `GET …/import/{id}` shows the progress. The export streams NDJSON page by
 * page.
 */
export const adminUsersBulkRoutes: FastifyPluginAsyncTypebox<GatewayDeps> = async (app, deps) => {
  const usersAdmin = deps.usersAdmin;
  if (!usersAdmin) return;
  const running = new Set<Promise<unknown>>();
  app.addHook("onClose", async () => {
    await Promise.allSettled(running);
  });
  // The body stays a stream: the route spools it.
  app.addContentTypeParser(NDJSON, (_req, payload, done) => done(null, payload));

  app.post(
    "/admin/v1/users/import",
    {
      schema: {
        ...admin,
        summary: "Import users from NDJSON through an entry point, with their foreign password hashes (a job; audited)",
        querystring: Type.Object({
          entrypoint: Type.String({ minLength: 1, maxLength: 128 }),
          firebase: Type.Optional(Type.String({ maxLength: 4096, description: "Firebase's hash parameters as JSON" })),
        }),
        response: { 202: ContentOf(Type.Object({ job: AnyObject })), ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (req, reply) => {
      // Only NDJSON is spooled: a JSON or form body was parsed by another parser.
      if (!(req.body instanceof Readable)) throw domainError("UNSUPPORTED_MEDIA_TYPE", `send ${NDJSON}`);
      const body = req.body;
      const firebaseParams = req.query.firebase ?? "";
      const started = await usersAdmin.startUserImport(
        { entrypointId: req.query.entrypoint, firebaseParams },
        asOperator(req),
      );
      const job = started.job!;
      const file = join(tmpdir(), `gatehouse-import-${job.id}.ndjson`);
      // The batches go as the gateway itself: the job outlives this request (the audit still names its operator).
      const feed = () => importFile(usersAdmin, { id: job.id, firebase: firebaseParams }, file);
      try {
        // A slow upload keeps its job alive (a job nothing moves for minutes is taken for a dead feeder).
        await keepingJobAlive(usersAdmin, { id: job.id, firebase: firebaseParams }, () =>
          pipeline(body ?? Readable.from([]), byteLimit(IMPORT_MAX_BYTES), createWriteStream(file, { mode: 0o600 })),
        );
      } catch (err) {
        await unlink(file).catch(() => undefined);
        await usersAdmin.finishUserImport({ jobId: job.id }).catch(() => undefined);
        throw err;
      }
      const work = feed()
        .catch((err: unknown) => {
          req.log.error({ err, job: job.id }, "user import stopped");
          return usersAdmin.finishUserImport({ jobId: job.id }).catch(() => undefined);
        })
        .finally(() => unlink(file).catch(() => undefined));
      running.add(work);
      void work.finally(() => running.delete(work));
      return sendContent(reply, 202, { job: { id: job.id, status: job.status } });
    },
  );

  app.get(
    "/admin/v1/users/import/:id",
    {
      schema: {
        ...admin,
        summary: "An import's progress: status, counts, and the lines skipped or failed",
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
        // The job's fields at the top of `content` too: section 15 names them without saying where.
        response: {
          200: ContentOf(Type.Intersect([Type.Object({ job: AnyObject }), AnyObject])),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (req, reply) => {
      const res = await usersAdmin.getUserImport({ jobId: req.params.id }, asOperator(req));
      const job = importJobJson(res.job!, true);
      return sendContent(reply, 200, { ...job, job });
    },
  );

  app.get(
    "/admin/v1/users/export",
    {
      schema: {
        ...admin,
        summary:
          "Every user as NDJSON in the import's form; ?include=hashes (admin:write) adds password hashes (audited)",
        querystring: Type.Object({ include: Type.Optional(Type.Literal("hashes")) }),
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const includeHashes = req.query.include === "hashes";
      const opts = asOperator(req);
      // The first page before the headers: a refusal (hashes without admin:write) is still an error envelope.
      const first = await usersAdmin.exportUsers({ includeHashes, pageToken: "", pageSize: 500 }, opts);
      async function* lines() {
        let page = first;
        for (;;) {
          for (const line of page.lines) yield `${line}\n`;
          if (!page.nextPageToken) return;
          page = await usersAdmin!.exportUsers({ includeHashes, pageToken: page.nextPageToken, pageSize: 500 }, opts);
        }
      }
      return reply
        .code(200)
        .header("content-type", NDJSON)
        .header("content-disposition", 'attachment; filename="users.ndjson"')
        .send(Readable.from(lines()));
    },
  );
};
