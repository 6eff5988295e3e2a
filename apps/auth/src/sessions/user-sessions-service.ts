import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { validationError } from "@gatehouse/errors";
import type { Logger } from "@gatehouse/logging";
import type { UserSessionsService } from "@gatehouse/proto";
import type { Sessions } from "./sessions.ts";

const MAX_ID_LENGTH = 256;

function userIdOf(req: { userId: string }): string {
  if (!req.userId) throw validationError([{ field: "user_id", code: "required" }]);
  if (req.userId.length > MAX_ID_LENGTH || /[\s\p{Cc}]/u.test(req.userId))
    throw validationError([{ field: "user_id", code: "invalid_format" }]);
  return req.userId;
}

/** UserSessionsService: a user's sessions for the users service's admin operations. */
export function createUserSessionsService(deps: {
  sessions: Sessions;
  idleSeconds: number;
  logger?: Logger;
}): ServiceImpl<typeof UserSessionsService> {
  return {
    async listUserSessions(req) {
      const sessions = await deps.sessions.liveSessionsOf(userIdOf(req));
      return {
        sessions: sessions.map((s) => ({
          sessionId: s.sid,
          clientId: s.clientId,
          createTime: timestampFromMs(s.created),
          refreshTime: timestampFromMs(s.refreshedAt),
          expireTime: timestampFromMs(Math.min(s.expiresAt, s.refreshedAt + deps.idleSeconds * 1000)),
          sourceId: s.sourceId ?? "",
        })),
      };
    },

    async revokeUserSessions(req) {
      const userId = userIdOf(req);
      const revokedCount = await deps.sessions.endAllOf(userId);
      deps.logger?.info({ userId, revokedCount }, "every session of the user ended");
      return { revokedCount };
    },
  };
}
