import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import Type from "typebox";
import type { GatewayDeps } from "../../deps.ts";
import { asOperator, bodyless } from "../../http/admin-call.ts";
import { adminUserToJson, page } from "../../http/admin-json.ts";
import { sendContent } from "../../http/envelope.ts";
import { AdminUser, AnyObject, ContentOf, ListOf, PageQuery } from "../../schemas/admin.ts";
import { errorResponses } from "../../schemas/common.ts";

const UserId = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128, description: "object_id or pulse_id" }) });
const UserContent = ContentOf(Type.Object({ user: AdminUser }));
const admin = { tags: ["admin"], security: [{ bearer: [] }] };

/** /admin/v1/users: the users service's accounts as operators see them (contract section 6). */
export const adminUsersRoutes: FastifyPluginAsyncTypebox<GatewayDeps> = async (app, deps) => {
  const usersAdmin = deps.usersAdmin;
  if (!usersAdmin) return;

  app.get(
    "/admin/v1/users",
    {
      schema: {
        ...admin,
        summary: "Search users by exact value or prefix of email, phone_number, screen_name, object id or pulse_id",
        querystring: Type.Object(
          { q: Type.Optional(Type.String({ maxLength: 320 })), ...PageQuery },
          { additionalProperties: true },
        ),
        response: { 200: ListOf(AdminUser), ...errorResponses(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const res = await usersAdmin.searchUserAccounts(
        { query: q.q ?? "", pageSize: q.limit ?? 0, pageToken: q.cursor ?? "" },
        asOperator(req),
      );
      return sendContent(reply, 200, page(res.users.map(adminUserToJson), res.nextPageToken));
    },
  );

  app.get(
    "/admin/v1/users/:id",
    {
      schema: {
        ...admin,
        summary: "Read a user with status, last login, live sessions and MFA",
        params: UserId,
        response: { 200: UserContent, ...errorResponses(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const res = await usersAdmin.getUserAccount({ userId: req.params.id }, asOperator(req));
      return sendContent(reply, 200, { user: adminUserToJson(res.account!) });
    },
  );

  const action = (
    path: string,
    summary: string,
    call: (
      userId: string,
      opts: ReturnType<typeof asOperator>,
    ) => Promise<{ account?: Parameters<typeof adminUserToJson>[0] }>,
  ) =>
    app.post(
      `/admin/v1/users/:id/${path}`,
      {
        ...bodyless,
        schema: {
          ...admin,
          summary,
          params: UserId,
          response: { 200: UserContent, ...errorResponses(401, 403, 404, 503) },
        },
      },
      async (req, reply) => {
        const res = await call(req.params.id, asOperator(req));
        return sendContent(reply, 200, { user: adminUserToJson(res.account!) });
      },
    );
  action(
    "lock",
    "Lock an account: login answers 403 account_locked (after the password check); every session ends at once (audited)",
    (userId, o) => usersAdmin.lockUserAccount({ userId }, o),
  );
  action("unlock", "Unlock an account (audited)", (userId, o) => usersAdmin.unlockUserAccount({ userId }, o));
  action("logout", "Log a user out everywhere: every session and its tokens end at once (audited)", (userId, o) =>
    usersAdmin.endUserSessions({ userId }, o),
  );

  app.delete(
    "/admin/v1/users/:id/passkeys",
    {
      ...bodyless,
      schema: {
        ...admin,
        summary: "Remove every passkey of a user (audited); answers the user and how many were removed",
        params: UserId,
        response: {
          200: ContentOf(Type.Object({ user: AdminUser, removed: Type.Integer() })),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (req, reply) => {
      const res = await usersAdmin.removeUserPasskeys({ userId: req.params.id }, asOperator(req));
      return sendContent(reply, 200, { user: adminUserToJson(res.account!), removed: res.removedCount });
    },
  );

  app.delete(
    "/admin/v1/users/:id/identities/:provider",
    {
      ...bodyless,
      schema: {
        ...admin,
        summary: "Unlink the user's account at an identity provider (audited); 404 identity_not_linked when none",
        params: Type.Object({ ...UserId.properties, provider: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 204: Type.Null({ description: "Unlinked" }), ...errorResponses(401, 403, 404) },
      },
    },
    async (req, reply) => {
      await usersAdmin.unlinkUserIdentity({ userId: req.params.id, provider: req.params.provider }, asOperator(req));
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/admin/v1/users/:id/export",
    {
      schema: {
        ...admin,
        summary: "Export everything stored about a user as JSON, without secrets or hashes (audited)",
        params: UserId,
        response: { 200: ContentOf(AnyObject), ...errorResponses(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const res = await usersAdmin.exportUserData({ userId: req.params.id }, asOperator(req));
      const user = adminUserToJson(res.account!);
      reply.header("content-disposition", `attachment; filename="user-${String(user.id).replace(/[^\w-]/g, "")}.json"`);
      return sendContent(reply, 200, { exported: new Date().toISOString(), user, ...(res.records ?? {}) });
    },
  );

  app.delete(
    "/admin/v1/users/:id",
    {
      ...bodyless,
      schema: {
        ...admin,
        summary: "Erase a user: personal data removed, identifiers free at once, sessions ended (audited)",
        params: UserId,
        response: { 204: Type.Null({ description: "Erased" }), ...errorResponses(401, 403, 404, 503) },
      },
    },
    async (req, reply) => {
      await usersAdmin.eraseUser({ userId: req.params.id }, asOperator(req));
      return reply.code(204).send(null);
    },
  );
};
