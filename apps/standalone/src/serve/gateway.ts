import { createClient } from "@connectrpc/connect";
import type { Config } from "@gatehouse/config";
import { createGateway } from "@gatehouse/gateway";
import { openKv } from "@gatehouse/kv";
import type { Logger } from "@gatehouse/logging";
import {
  AssertionsService,
  AuthService,
  DeviceAuthorizationService,
  MfaService,
  PasskeysService,
  RedirectOriginsService,
  IdentityProvidersService,
  RegistryAdminService,
  RegistryService,
  UsersAdminService,
  UsersService,
  WebhooksAdminService,
} from "@gatehouse/proto";
import { callerInterceptors, DRAIN_GRACE_MS, httpTransport, InternalTokens, type Drain } from "@gatehouse/rpc";
import { closeWithin } from "../shutdown.ts";
import { loadKeyRing } from "@gatehouse/secrets";
import { CONSOLE_DIST } from "../console-build.ts";
import { accessTokenVerifier, hostedAltcha, kvRegistryNotices } from "../wiring.ts";
import { peerReady } from "./probe-peer.ts";

/**
 * The public REST gateway over registry, auth and users. It keeps no data: the
 * key that signs its internal service tokens, and Redis only to read the
 * revocation marks the auth service writes when it verifies access tokens.
 */
export async function serveGateway(config: Config, logger: Logger, drain: Drain): Promise<() => Promise<void>> {
  const keys = await loadKeyRing(config.secretKey, config.dataDir);
  const internal = new InternalTokens(keys);
  const caller = callerInterceptors(internal, "gateway");
  const kv = openKv({
    redisUrl: config.redisUrl,
    prefix: config.redisPrefix,
    commandTimeoutMs: config.redisCommandTimeoutMs,
  });
  if (!config.redisUrl) {
    logger.warn(
      "no REDIS_URL: no shared revocation marks; every access token's revocation is asked of the auth service (development only)",
    );
  }
  const urls = config.serviceUrls;
  const auth = createClient(AuthService, httpTransport(urls.auth, caller));
  const app = await createGateway(
    {
      registry: createClient(RegistryService, httpTransport(urls.registry, caller)),
      auth,
      devices: createClient(DeviceAuthorizationService, httpTransport(urls.auth, caller)),
      users: createClient(UsersService, httpTransport(urls.users, caller)),
      mfa: createClient(MfaService, httpTransport(urls.users, caller)),
      passkeys: createClient(PasskeysService, httpTransport(urls.users, caller)),
      assertions: createClient(AssertionsService, httpTransport(urls.registry, caller)),
      origins: createClient(RedirectOriginsService, httpTransport(urls.registry, caller)),
      // Without Redis the registry's notices do not reach this process: the caches expire on their own.
      registryNotices: config.redisUrl ? kvRegistryNotices(kv) : undefined,
      registryAdmin: createClient(RegistryAdminService, httpTransport(urls.registry, caller)),
      identityProviders: createClient(IdentityProvidersService, httpTransport(urls.registry, caller)),
      usersAdmin: createClient(UsersAdminService, httpTransport(urls.users, caller)),
      webhooksAdmin: createClient(WebhooksAdminService, httpTransport(urls.registry, caller)),
      verifyAccessToken: accessTokenVerifier(config, kv, () => auth),
      hostedLoginKey: keys.mac("hosted-login"),
      altcha: hostedAltcha(keys, kv),
      consoleDir: CONSOLE_DIST,
      config,
      drain,
      ready: async () => (await Promise.all([urls.registry, urls.auth, urls.users].map(peerReady))).every(Boolean),
    },
    logger,
  );
  await app.listen({ port: config.port, host: config.host });
  return async () => {
    await closeWithin(app, DRAIN_GRACE_MS);
    await kv.close();
  };
}
