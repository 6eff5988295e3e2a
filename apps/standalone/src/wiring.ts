import type { JSONWebKeySet } from "jose";
import type { Client, Interceptor } from "@connectrpc/connect";
import { accessTokenRevocationCheck } from "@gatehouse/auth";
import type { Config } from "@gatehouse/config";
import type { Kv } from "@gatehouse/kv";
import type { Logger } from "@gatehouse/logging";
import type { AuthService } from "@gatehouse/proto";
import {
  authnInterceptor,
  createAccessTokenVerifier,
  observeInterceptor,
  type InternalTokens,
  type ServiceModule,
} from "@gatehouse/rpc";


/** Verifies access tokens of the auth service (JWKS over RPC, revocation in the shared store). */
export function accessTokenVerifier(config: Config, kv: Kv, auth: () => Client<typeof AuthService>) {
  return createAccessTokenVerifier({
    fetchJwks: async () => JSON.parse((await auth().getJwks({})).jwksJson) as JSONWebKeySet,
    issuer: config.publicAuthUrl,
    audiences: [...new Set([config.publicBaseUrl, config.publicGraphUrl, config.publicAuthUrl])],
    // Marks the auth service writes: revoked access tokens and ended sessions.
    isRevoked: accessTokenRevocationCheck(kv),
  });
}

/** The server interceptors every service runs: observe (ids, logs, metrics) then authenticate. */
export function serverInterceptors(
  mod: ServiceModule,
  logger: Logger,
  internal: InternalTokens,
  verify?: ReturnType<typeof accessTokenVerifier>,
): Interceptor[] {
  return [observeInterceptor(logger, mod.name), authnInterceptor({ policy: mod.policy, internal, verifyAccessToken: verify })];
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
  };
}
