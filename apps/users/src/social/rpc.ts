import type { JsonObject } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { auditContext } from "@gatehouse/admin";
import { validationError } from "@gatehouse/errors";
import { startUpstream } from "@gatehouse/idp";
import type { AuthorizationRequest, UsersService } from "@gatehouse/proto";
import type { KeyRing } from "@gatehouse/secrets";
import { localeOf } from "../caller.ts";
import { entrypointOf } from "../entrypoint.ts";
import { authorizationDigest } from "../flow/token.ts";
import type { EntrypointDirectory, ResolvedEntrypoint } from "../ports.ts";
import type { RegisterDeps, Registered } from "../registration/register.ts";
import { registerUpstreamUser } from "../registration/upstream.ts";
import type { Transactional } from "../transactional.ts";
import type { Providers } from "../verifiers/upstream/providers.ts";
import {
  openUpstream,
  sealUpstream,
  TRANSACTION_TTL_MS,
  upstreamFailed,
  type PendingIdentity,
} from "../verifiers/upstream/tokens.ts";
import { unlinkIdentity, type UnlinkStores } from "./unlink.ts";

export interface SocialDeps {
  keys: KeyRing;
  entrypoints: EntrypointDirectory;
  providers: Providers;
  data: Transactional<UnlinkStores>;
}

/** StartUpstreamLogin and UnlinkIdentity (contract section 11); the callback is LoginUser's `upstream` credential. */
export function socialRpc(
  deps: SocialDeps,
): Pick<ServiceImpl<typeof UsersService>, "startUpstreamLogin" | "unlinkIdentity"> {
  return {
    async startUpstreamLogin(req) {
      const { entrypoint } = await entrypointOf(deps.entrypoints, req.caller);
      if (!req.authorizationRequest) throw validationError([{ field: "authorizationRequest", code: "required" }]);
      if (!entrypoint.identityProviders.includes(req.provider))
        throw validationError([
          { field: "idp", code: "invalid_value", description: "not offered by this entry point" },
        ]);
      const { settings, config } = await deps.providers(req.provider);
      const { url, checks } = await startUpstream(config, settings, req.redirectUri);
      const transaction = sealUpstream(deps.keys, "upstream-transaction", {
        ...checks,
        provider: req.provider,
        entrypointId: entrypoint.id,
        authorization: authorizationDigest(req.authorizationRequest),
        exp: Date.now() + TRANSACTION_TTL_MS,
      });
      return { authorizationUrl: url.href, transaction };
    },

    async unlinkIdentity(req, ctx) {
      if (!req.userId || !req.provider) throw validationError([{ field: "provider", code: "required" }]);
      // The gateway calls on the user's behalf: the user is the actor.
      const who = { ...auditContext(ctx), actor: `user:${req.userId}` };
      await unlinkIdentity(deps.data, req.userId, req.provider, who);
      return {};
    },
  };
}

/**
 * The registration page of an UPSTREAM_SIGNUP_REQUIRED token: the identity's
 * user registered with what the page added (missing fields, assertions).
 */
export function registerWithSignupToken(
  deps: { keys: KeyRing; register: RegisterDeps },
  req: {
    token: string;
    resolved: ResolvedEntrypoint;
    authorization: AuthorizationRequest | undefined;
    object: JsonObject | undefined;
    caller: Parameters<typeof localeOf>[0];
  },
): Promise<Registered> {
  const p = openUpstream<PendingIdentity>(deps.keys, "upstream-signup", req.token);
  const digest = req.authorization ? authorizationDigest(req.authorization) : "";
  if (p.entrypointId !== req.resolved.entrypoint.id || p.authorization !== digest)
    throw upstreamFailed("invalid_state");
  return registerUpstreamUser(deps.register, {
    identity: p.identity,
    entrypoint: req.resolved.entrypoint,
    clientId: req.resolved.clientId,
    locale: localeOf(req.caller),
    sourceId: req.caller?.sourceId ?? "",
    sent: req.object,
  });
}
