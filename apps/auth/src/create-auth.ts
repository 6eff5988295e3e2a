import type { JSONWebKeySet } from "jose";
import type { Db } from "@gatehouse/db";
import type { Kv } from "@gatehouse/kv";
import type { Logger } from "@gatehouse/logging";
import { AuthService, DeviceAuthorizationService, UserSessionsService } from "@gatehouse/proto";
import { INTERNAL_SCOPE, type ServiceModule } from "@gatehouse/rpc";
import type { KeyRing } from "@gatehouse/secrets";
import { createAuthService } from "./auth-service.ts";
import type { ClientDirectory } from "./clients/client-directory.ts";
import { createAuthorizationCodes, DEFAULT_CODE_TTL_SECONDS } from "./codes/authorization-codes.ts";
import { createDeviceAuthorizations } from "./device/devices.ts";
import { createDeviceAuthorizationService } from "./device/service.ts";
import { deviceStore } from "./device/store.ts";
import { grantRegistry } from "./grants/index.ts";
import { createKeyManager, rotationGraceSeconds } from "./keys/key-manager.ts";
import type { Rotation } from "./keys/signing-key-store.ts";
import { createSessionStore } from "./sessions/session-store.ts";
import { createSessions } from "./sessions/sessions.ts";
import { createUserSessionsService } from "./sessions/user-sessions-service.ts";
import { DEFAULT_SIGNING_KEY_ROTATION_SECONDS, sessionLifetimes, type AuthSettings } from "./settings.ts";
import { createAccessTokens } from "./tokens/access-token.ts";
import { createIdTokens } from "./tokens/id-token.ts";
import type { RevocableToken } from "@gatehouse/rpc";
import type { LoaderOptions } from "./revocation/loader.ts";
import { createRevocationList } from "./revocation/revocation-list.ts";

export interface AuthDeps {
  db: Db;
  kv: Kv;
  keys: KeyRing;
  logger: Logger;
  clients: ClientDirectory;
  settings: AuthSettings;
  /** Tests shorten the revocation loader's waits. */
  revocationLoader?: LoaderOptions;
}

export type AuthModule = ServiceModule & {
  /**
   * Whether an access token was revoked (its jti, its session, its user's "not before"). Other
   * processes' verifiers read the same marks (accessTokenRevocationCheck) and
   * call CheckRevocation when the shared store cannot tell.
   */
  isRevoked(token: RevocableToken): Promise<boolean>;
  jwks(): Promise<JSONWebKeySet>;
  /** Rotates the signing keys now (the next key starts signing); other replicas follow within a minute. */
  rotateSigningKeys(): Promise<Rotation>;
  /** Reads the signing keys again (a rotation elsewhere, a retirement due). */
  reloadSigningKeys(): Promise<void>;
};

/** The auth service: its signing keys are ready (created if needed) when this resolves. */
export async function createAuth(deps: AuthDeps): Promise<AuthModule> {
  const keys = await createKeyManager({
    db: deps.db,
    keyRing: deps.keys,
    alg: deps.settings.signingAlg,
    logger: deps.logger,
    rotation: {
      rotateAfterSeconds: deps.settings.signingKeyRotationSeconds ?? DEFAULT_SIGNING_KEY_ROTATION_SECONDS,
      graceSeconds: rotationGraceSeconds(deps.settings.accessTokenTtlSeconds),
    },
  });
  const revocations = createRevocationList({
    db: deps.db,
    kv: deps.kv,
    logger: deps.logger,
    loader: deps.revocationLoader,
  });
  // Marks lost with the previous process (npm start) or a Redis restart come back before the first request;
  // if Redis is away now, the first check loads them instead (and answers 503 until it can).
  await revocations
    .ensureLoaded()
    .catch((err: unknown) => deps.logger.warn({ err }, "revocation marks not loaded at start; loading on first use"));
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
  const devices = createDeviceAuthorizations({
    store: deviceStore(deps.db),
    kv: deps.kv,
    hashDeviceCode: deps.keys.mac("device-code"),
    hashUserCode: deps.keys.mac("device-user-code"),
    settings: {
      ...(deps.settings.deviceCodeTtlSeconds ? { ttlSeconds: deps.settings.deviceCodeTtlSeconds } : {}),
      ...(deps.settings.deviceCodeFailuresPerAddress
        ? { failuresPerAddress: deps.settings.deviceCodeFailuresPerAddress }
        : {}),
      ...(deps.settings.deviceCodeFailureWindowSeconds
        ? { failureWindowSeconds: deps.settings.deviceCodeFailureWindowSeconds }
        : {}),
    },
  });
  const service = createAuthService({
    clients: deps.clients,
    grants: grantRegistry(),
    keys,
    tokens,
    revocations,
    sessions,
    codes,
    devices,
    idTokens,
    settings: deps.settings,
    logger: deps.logger,
  });
  const internal = [INTERNAL_SCOPE];
  return {
    name: "auth",
    routes: (router) => {
      router.service(AuthService, service);
      router.service(
        DeviceAuthorizationService,
        createDeviceAuthorizationService({ clients: deps.clients, devices, codes }),
      );
      router.service(
        UserSessionsService,
        createUserSessionsService({ sessions, idleSeconds: lifetimes.idleSeconds, logger: deps.logger }),
      );
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
      checkRevocation: internal,
      // DeviceAuthorizationService (the gateway's device endpoint and /device page).
      authorizeDevice: internal,
      lookUpUserCode: internal,
      signInDevice: internal,
      decideDevice: internal,
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
    isRevoked: (token) => revocations.isRevoked(token),
    jwks: async () => keys.jwks(),
    rotateSigningKeys: () => keys.rotate(),
    reloadSigningKeys: () => keys.reload(),
  };
}
