import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import Type from "typebox";
import { validationError } from "@gatehouse/errors";
import type { AuditEntry, AuditFilter, AuditPosition } from "@gatehouse/proto";
import type { GatewayDeps } from "../../deps.ts";
import { asOperator } from "../../http/admin-call.ts";
import { auditItemToJson, page } from "../../http/admin-json.ts";
import { decodeAuditCursor, mergeAuditPages, positionFor } from "../../http/audit-merge.ts";
import { sendContent } from "../../http/envelope.ts";
import { AuditItem, ListOf, PageQuery } from "../../schemas/admin.ts";
import { errorResponses } from "../../schemas/common.ts";

type Init<T> = Omit<T, "$typeName">;
type Lister = (
  req: { filter: Init<AuditFilter>; after?: Init<AuditPosition>; pageSize: number },
  opts: ReturnType<typeof asOperator>,
) => Promise<{ entries: AuditEntry[]; more: boolean }>;

const Filter = Type.String({ minLength: 1, maxLength: 256 });
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * GET /admin/v1/audit: every service's audit log, merged newest first (time,
 * then service, then entry), one cursor for all (contract section 6). Entries
 * are only ever read here: no route changes or removes one.
 */
export const adminAuditRoutes: FastifyPluginAsyncTypebox<GatewayDeps> = async (app, deps) => {
  const sources: Record<string, Lister> = {};
  const { registryAdmin, usersAdmin } = deps;
  if (registryAdmin) sources.registry = (req, o) => registryAdmin.listRegistryAuditEntries(req, o);
  if (usersAdmin) sources.users = (req, o) => usersAdmin.listUsersAuditEntries(req, o);
  const names = Object.keys(sources).sort();
  if (!names.length) return;

  app.get(
    "/admin/v1/audit",
    {
      schema: {
        summary: "The audit log of every service, newest first",
        description:
          "Filters: `actor` (client:<id>, user:<id>, or the bare id), `action`, `target`, `since` (RFC 3339). Pages with `limit` and `cursor`.",
        tags: ["admin"],
        security: [{ bearer: [] }],
        querystring: Type.Object(
          {
            actor: Type.Optional(Filter),
            action: Type.Optional(Filter),
            target: Type.Optional(Filter),
            since: Type.Optional(Type.String({ maxLength: 64 })),
            ...PageQuery,
          },
          { additionalProperties: true },
        ),
        response: { 200: ListOf(AuditItem), ...errorResponses(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const since = q.since === undefined ? undefined : Date.parse(q.since);
      if (since !== undefined && (!RFC3339.test(q.since!) || Number.isNaN(since))) {
        throw validationError([{ field: "query.since", code: "invalid_format", description: "an RFC 3339 date-time" }]);
      }
      const cursor = q.cursor ? decodeAuditCursor(q.cursor, names) : undefined;
      const limit = q.limit ?? 50;
      const filter = {
        actor: q.actor ?? "",
        action: q.action ?? "",
        target: q.target ?? "",
        ...(since === undefined ? {} : { since: timestampFromMs(since) }),
      };
      const pages = await Promise.all(
        names.map(async (source) => ({
          source,
          ...(await sources[source]!({ filter, after: positionFor(source, cursor), pageSize: limit }, asOperator(req))),
        })),
      );
      const merged = mergeAuditPages(pages, limit);
      return sendContent(
        reply,
        200,
        page(
          merged.items.map((i) => auditItemToJson(i.source, i.entry)),
          merged.next,
        ),
      );
    },
  );
};
