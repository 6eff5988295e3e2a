import type { ServiceImpl } from "@connectrpc/connect";
import { auditContext, listAuditEntries, pageOf, pageSize, readKeyCursor } from "@gatehouse/admin";
import { validationError } from "@gatehouse/errors";
import type { Logger } from "@gatehouse/logging";
import type { UsersAdminService } from "@gatehouse/proto";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { INTERNAL_SCOPE, type ScopePolicy } from "@gatehouse/rpc";
import type { Db } from "@gatehouse/db";
import { findAccount, searchAccounts, toAccount } from "./accounts.ts";
import { endUserSessions, lockAccount, sessionsOf, unlockAccount, type AdminDeps } from "./actions.ts";
import { createOperator, type CreateOperatorDeps } from "./create-operator.ts";
import { eraseUser } from "./erase.ts";
import { exportUser } from "./export.ts";
import { unlinkUserIdentity } from "./identities.ts";
import { removePasskeys } from "./passkeys.ts";
import { bulkMethods, bulkPolicy } from "../bulk/rpc.ts";
import type { ExportDeps } from "../bulk/export.ts";
import type { ImportDeps } from "../bulk/jobs.ts";
import { AUDIT_TABLE } from "./store.ts";

const READ = ["admin:read", "admin"];
const WRITE = ["admin:write", "admin"];

/** Operators only: admin:read reads (the audited export included), admin:write changes, admin both. */
export const usersAdminPolicy: ScopePolicy = {
  searchUserAccounts: READ,
  getUserAccount: READ,
  lockUserAccount: WRITE,
  unlockUserAccount: WRITE,
  endUserSessions: WRITE,
  exportUserData: READ,
  eraseUser: WRITE,
  removeUserPasskeys: WRITE,
  unlinkUserIdentity: WRITE,
  listUsersAuditEntries: READ,
  // The launcher's bootstrap and the CLI only: an operator cannot make another over the API.
  createOperator: [INTERNAL_SCOPE],
  ...bulkPolicy,
};

const MAX_QUERY = 320;

function userId(req: { userId: string }): string {
  if (!req.userId) throw validationError([{ field: "userId", code: "required" }]);
  if (req.userId.length > 128) throw validationError([{ field: "userId", code: "too_long" }]);
  return req.userId;
}

/** UsersAdminService over the admin domain modules: maps requests in and results out. */
export function createUsersAdminService(
  deps: AdminDeps & CreateOperatorDeps & ImportDeps & ExportDeps & { logger: Logger; db: Db },
): ServiceImpl<typeof UsersAdminService> {
  const { data, logger } = deps;
  return {
    ...bulkMethods(deps),
    async searchUserAccounts(req) {
      if (req.query.length > MAX_QUERY) throw validationError([{ field: "q", code: "too_long" }]);
      const size = pageSize(req.pageSize);
      const rows = await searchAccounts(data, req.query, readKeyCursor(req.pageToken), size + 1);
      const page = pageOf(rows, size, (a) => a.user.id);
      return { users: page.items.map((a) => toAccount(a)), nextPageToken: page.next };
    },

    async createOperator(req, ctx) {
      const who = auditContext(ctx);
      const op = await createOperator(
        deps,
        {
          email: req.email,
          password: req.password,
          clientId: req.clientId,
          entrypointId: req.entrypointId,
          ifAbsent: req.ifAbsent,
        },
        who,
      );
      if (op.created)
        logger.info({ userId: op.userId, actor: who.actor, activation: Boolean(op.activation) }, "operator created");
      return {
        userId: op.userId,
        created: op.created,
        activationToken: op.activation?.token ?? "",
        ...(op.activation ? { activationExpireTime: timestampFromDate(op.activation.expiresAt) } : {}),
      };
    },

    async getUserAccount(req) {
      const account = await findAccount(data, userId(req));
      const sessions = await sessionsOf(deps).list(account.user.id);
      return { account: toAccount(account, sessions.length) };
    },

    async lockUserAccount(req, ctx) {
      const who = auditContext(ctx);
      const done = await lockAccount(deps, userId(req), who);
      logger.info({ userId: done.account.user.id, actor: who.actor, sessionsEnded: done.ended }, "account locked");
      return { account: toAccount(done.account, 0) };
    },

    async unlockUserAccount(req, ctx) {
      const who = auditContext(ctx);
      const account = await unlockAccount(deps, userId(req), who);
      logger.info({ userId: account.user.id, actor: who.actor }, "account unlocked");
      return { account: toAccount(account) };
    },

    async endUserSessions(req, ctx) {
      const who = auditContext(ctx);
      const done = await endUserSessions(deps, userId(req), who);
      logger.info(
        { userId: done.account.user.id, actor: who.actor, sessionsEnded: done.ended },
        "user logged out everywhere",
      );
      return { account: toAccount(done.account, 0), revokedCount: done.ended };
    },

    async exportUserData(req, ctx) {
      const who = auditContext(ctx);
      const done = await exportUser(deps, userId(req), who);
      logger.info({ userId: done.account.user.id, actor: who.actor }, "user data exported");
      return { account: toAccount(done.account, done.sessionCount), records: done.records };
    },

    async eraseUser(req, ctx) {
      const who = auditContext(ctx);
      await eraseUser(deps, userId(req), who);
      logger.info({ actor: who.actor }, "user erased");
      return {};
    },

    async removeUserPasskeys(req, ctx) {
      const who = auditContext(ctx);
      const done = await removePasskeys(deps, userId(req), who);
      logger.info({ userId: done.account.user.id, actor: who.actor, removed: done.removed }, "passkeys removed");
      return { account: toAccount(done.account), removedCount: done.removed };
    },

    async unlinkUserIdentity(req, ctx) {
      const who = auditContext(ctx);
      if (!req.provider) throw validationError([{ field: "provider", code: "required" }]);
      await unlinkUserIdentity(deps, userId(req), req.provider, who);
      logger.info({ actor: who.actor, provider: req.provider }, "identity unlinked");
      return {};
    },

    async listUsersAuditEntries(req) {
      return listAuditEntries(deps.db, AUDIT_TABLE, req);
    },
  };
}
