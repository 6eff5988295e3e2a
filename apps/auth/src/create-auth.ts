import type { JSONWebKeySet } from "jose";
import type { Db } from "@gatehouse/db";
import type { Kv } from "@gatehouse/kv";
import type { Logger } from "@gatehouse/logging";
import { AuthService, UserSessionsService } from "@gatehouse/proto";
import { INTERNAL_SCOPE, type ServiceModule } from "@gatehouse/rpc";
import type { KeyRing } from "@gatehouse/secrets";
import { createAuthService } from "./auth-service.ts";
import type { ClientDirectory } from "./clients/client-directory.ts";
import { createAuthorizationCodes, DEFAULT_CODE_TTL_SECONDS } from "./codes/authorization-codes.ts";
import { grantRegistry } from "./grants/index.ts";
import { createKeyManager } from "./keys/key-manager.ts";
import { createSessionStore } from "./sessions/session-store.ts";
import { createSessions } from "./sessions/sessions.ts";
import { createUserSessionsService } from "./sessions/user-sessions-service.ts";
import { sessionLifetimes, type AuthSettings } from "./settings.ts";
import { createAccessTokens } from "./tokens/access-token.ts";
import { createIdTokens } from "./tokens/id-token.ts";
import { createRevocationList } from "./tokens/revocation-list.ts";

export interface AuthDeps {
  db: Db;
  kv: Kv;
  keys: KeyRing;
  logger: Logger;
  clients: ClientDirectory;
  settings: AuthSettings;
}

export type AuthModule = ServiceModule & {
  /**
   * Whether an access token was revoked: its id (jti), or the login session
   * named by its sid claim. Other services' verifiers must check both keys:
   * `revoked:at:<jti>` and `revoked:sid:<sid>` (accessTokenRevocationCheck).
   */
  isRevoked(jti: string, sid?: string, sub?: string, iat?: number): Promise<boolean>;
  jwks(): Promise<JSONWebKeySet>;
};

/** The auth service: its signing keys are ready (created if needed) when this resolves. */
export async function createAuth(deps: AuthDeps): Promise<AuthModule> {
  const keys = await createKeyManager({ db: deps.db, keyRing: deps.keys, alg: deps.settings.signingAlg, logger: deps.logger });
  const revocations = createRevocationList(deps.kv);
  const tokens = createAccessTokens({ keys, revocations, settings: deps.settings });
  const lifetimes = sessionLifetimes(deps.settings);
  const store = createSessionStore({
    kv: deps.kv,
    hashToken: deps.keys.mac("refresh-token"),
    idleMs: lifetimes.idleSeconds * 1000,
    accessTokenTtlMs: lifetimes.accessTokenTtlSeconds * 1000,
  });
  const sessions = createSessions({ store, revocations, lifetimes, logger: deps.logger });
  const codes = createAuthorizationCodes({
    kv: deps.kv,
    hashCode: deps.keys.mac("authorization-code"),
    ttlSeconds: deps.settings.authorizationCodeTtlSeconds ?? DEFAULT_CODE_TTL_SECONDS,
  });
  const idTokens = createIdTokens({ keys, settings: deps.settings });
  const service = createAuthService({
    clients: deps.clients,
    grants: grantRegistry(),
    keys,
    tokens,
    revocations,
    sessions,
    codes,
    idTokens,
    settings: deps.settings,
    logger: deps.logger,
  });
  const internal = [INTERNAL_SCOPE];
  return {
    name: "auth",
    routes: (router) => {
      router.service(AuthService, service);
      router.service(UserSessionsService, createUserSessionsService({ sessions, idleSeconds: lifetimes.idleSeconds, logger: deps.logger }));
    },
    policy: {
      issueToken: internal,
      introspectToken: internal,
      revokeToken: internal,
      getJwks: internal,
      getServerMetadata: internal,
      issueUserSession: internal,
      revokeUserSession: internal,
      issueAuthorizationCode: internal,
      endSession: internal,
      // UserSessionsService (the users service's admin operations).
      listUserSessions: internal,
      revokeUserSessions: internal,
    },
    async ready() {
      return (await deps.db.ping()) && (await deps.kv.ping());
    },
    async close() {
      keys.close();
    },
    isRevoked: (jti, sid, sub, iat) => revocations.isRevoked(jti, sid, sub, iat),
    jwks: async () => keys.jwks(),
  };
}
