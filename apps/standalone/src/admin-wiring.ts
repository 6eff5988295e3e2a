import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import type { ClientDirectory } from "@gatehouse/auth";
import type { Kv } from "@gatehouse/kv";
import type { UserSessionsService } from "@gatehouse/proto";
import { registryChannel } from "@gatehouse/registry";
import type { UserSessions } from "@gatehouse/users";

// The admin API's wiring between services (issue 12).

/** The users service's view of a user's sessions: the auth service's UserSessionsService. */
export function userSessionsPort(auth: Client<typeof UserSessionsService>): UserSessions {
  const date = (t: Parameters<typeof timestampDate>[0] | undefined) => (t ? timestampDate(t) : new Date(0));
  return {
    async list(userId) {
      const res = await auth.listUserSessions({ userId });
      return res.sessions.map((s) => ({ clientId: s.clientId, created: date(s.createTime), refreshed: date(s.refreshTime), expires: date(s.expireTime) }));
    },
    async endAll(userId) {
      return (await auth.revokeUserSessions({ userId })).revokedCount;
    },
  };
}

/**
 * The auth service's cached client authentications hear the registry's notice
 * of a changed application (a rotated secret among them) and drop it at once,
 * in every process that shares the kv (Redis pub/sub).
 */
export async function forgetChangedClients(kv: Kv, directory: ClientDirectory): Promise<void> {
  await kv.subscribe(registryChannel("application"), (clientId) => directory.forget?.(clientId));
}
