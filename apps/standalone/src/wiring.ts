import type { JSONWebKeySet } from "jose";
import { altcha } from "@gatehouse/abuse";
import type { Client, Interceptor } from "@connectrpc/connect";
import type { AuthModule, ClientDirectory } from "@gatehouse/auth";
import type { Config } from "@gatehouse/config";
import type { Kv } from "@gatehouse/kv";
import type { Logger } from "@gatehouse/logging";
import type { KeyRing } from "@gatehouse/secrets";
import type { AuthService } from "@gatehouse/proto";
import {
  authnInterceptor,
  createAccessTokenVerifier,
  observeInterceptor,
  registryChannel,
  revocationCheck as accessTokenRevocationCheck,
  type InternalTokens,
  type RegistryNotices,
  type RegistryNotify,
  type ServiceModule,
} from "@gatehouse/rpc";

/** The registry's notices, published on the shared kv (the users service's caches hear them in every process). */
export const kvRegistryNotify =
  (kv: Kv, onError: (err: unknown) => void): RegistryNotify =>
  (topic, id) =>
    kv.publish(registryChannel(topic), id).catch(onError);

/** Subscribes to the registry's notices on the shared kv (every replica's caches of the registry hear them). */
export const kvRegistryNotices =
  (kv: Kv): RegistryNotices =>
  (topic, listener) =>
    kv.subscribe(registryChannel(topic), listener);

/**
 * The auth service's cached client authentications hear the registry's notice
 * of a changed application (a rotated secret among them) and drop it at once,
 * in every process that shares the kv (Redis pub/sub).
 */
export const forgetChangedClients = (kv: Kv, directory: ClientDirectory) =>
  kvRegistryNotices(kv)("application", (clientId) => directory.forget?.(clientId));

/**
 * Verifies access tokens of the auth service (JWKS over RPC, revocation marks
 * in the shared store). When the store cannot tell (it lost the marks, or it
 * is this process's own memory) the auth service answers, from its database.
 */
export function accessTokenVerifier(config: Config, kv: Kv, auth: () => Client<typeof AuthService>) {
  return createAccessTokenVerifier({
    fetchJwks: async () => JSON.parse((await auth().getJwks({})).jwksJson) as JSONWebKeySet,
    issuer: config.publicAuthUrl,
    audiences: [...new Set([config.publicBaseUrl, config.publicGraphUrl, config.publicAuthUrl])],
    isRevoked: accessTokenRevocationCheck(kv, async (t) => {
      const res = await auth().checkRevocation({ jti: t.jti, sub: t.sub, sid: t.sid ?? "", iat: BigInt(t.iat ?? 0) });
      return res.revoked;
    }),
  });
}

/**
 * The auth service's own check of access tokens on its RPCs: its keys and
 * revocations in process. Its methods are internal-only, so a valid access
 * token is refused as permission_denied (not as an invalid token).
 */
export function ownAccessTokenVerifier(config: Config, auth: Pick<AuthModule, "jwks" | "isRevoked">) {
  return createAccessTokenVerifier({
    fetchJwks: () => auth.jwks(),
    issuer: config.publicAuthUrl,
    audiences: [...new Set([config.publicBaseUrl, config.publicGraphUrl, config.publicAuthUrl])],
    isRevoked: (t) => auth.isRevoked(t),
  });
}

/** The server interceptors every service runs: observe (ids, logs, metrics) then authenticate. */
export function serverInterceptors(
  mod: ServiceModule,
  logger: Logger,
  internal: InternalTokens,
  verify?: ReturnType<typeof accessTokenVerifier>,
): Interceptor[] {
  return [
    observeInterceptor(logger, mod.name),
    authnInterceptor({ policy: mod.policy, internal, verifyAccessToken: verify }),
  ];
}

/** The auth service's token settings from the environment (one place for every launch path). */
export function authSettings(config: Config) {
  return {
    issuer: config.publicAuthUrl,
    audience: config.publicBaseUrl,
    accessTokenTtlSeconds: config.accessTokenTtlSeconds,
    authorizationCodeTtlSeconds: config.authorizationCodeTtlSeconds,
    refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
    refreshIdleTtlSeconds: config.refreshIdleTtlSeconds,
    signingAlg: config.signingAlg,
    signingKeyRotationSeconds: config.signingKeyRotationSeconds,
    deviceCodeTtlSeconds: config.deviceCode.ttlSeconds,
    deviceCodeFailuresPerAddress: config.deviceCode.failuresPerAddress,
    deviceCodeFailureWindowSeconds: config.loginLimits.windowSeconds,
  };
}

/** The hosted pages' ALTCHA checker: keys derived from SECRET_KEY (every replica agrees), used solutions in the shared kv. */
export const hostedAltcha = (keys: KeyRing, kv: Kv) =>
  altcha({ secret: keys.derive("altcha").toString("hex"), keySecret: keys.derive("altcha-key").toString("hex"), kv });
