import { create } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import { AuthorizationCodeSchema, SessionSchema, type AuthService, type UserSessionsService } from "@gatehouse/proto";
import { USER_SESSION_SCOPE } from "@gatehouse/rpc";
import type { LoginGrants, UserSessions } from "../ports.ts";

/** The auth service's part of a finished login, over its RPC client (the one mapping of its answers). */
export function authGrants(auth: Client<typeof AuthService>): LoginGrants {
  return {
    async openSession(userId, clientId) {
      const s = await auth.issueUserSession({ userId, clientId, scope: USER_SESSION_SCOPE });
      return create(SessionSchema, {
        accessToken: s.accessToken,
        refreshToken: s.refreshToken,
        expiresIn: s.expiresIn,
        expiresAtMs: BigInt(Date.now()) + s.expiresIn * 1000n,
        scope: s.scope,
        connectState: "connected",
      });
    },

    async issueCode(request, userId, authTime, operatorEmail) {
      const c = await auth.issueAuthorizationCode({
        clientId: request.clientId,
        redirectUri: request.redirectUri,
        scope: request.scope,
        codeChallenge: request.codeChallenge,
        // The gateway accepts S256 only (RFC 7636; plain is refused at the authorization endpoint).
        codeChallengeMethod: "S256",
        nonce: request.nonce,
        userId,
        authTime: timestampFromDate(authTime),
        operatorEmail: operatorEmail ?? "",
      });
      return create(AuthorizationCodeSchema, { code: c.code, expiresIn: c.expiresIn });
    },
  };
}

/** A user's sessions, over the auth service's UserSessionsService (admin view, lock, log out, erasure). */
export function authUserSessions(auth: Client<typeof UserSessionsService>): UserSessions {
  const date = (t: Timestamp | undefined) => (t ? timestampDate(t) : new Date(0));
  return {
    async list(userId) {
      const res = await auth.listUserSessions({ userId });
      return res.sessions.map((s) => ({
        clientId: s.clientId,
        created: date(s.createTime),
        refreshed: date(s.refreshTime),
        expires: date(s.expireTime),
        ...(s.sourceId ? { sourceId: s.sourceId } : {}),
      }));
    },
    async endAll(userId) {
      return (await auth.revokeUserSessions({ userId })).revokedCount;
    },
  };
}
