import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { auditContext } from "@gatehouse/admin";
import { validationError } from "@gatehouse/errors";
import type { ProviderSettings } from "@gatehouse/idp";
import type { IdentityProvider, IdentityProvidersService } from "@gatehouse/proto";
import {
  ADMIN_READ_SCOPES,
  ADMIN_WRITE_SCOPES,
  INTERNAL_SCOPE,
  type RegistryNotify,
  type ScopePolicy,
} from "@gatehouse/rpc";
import {
  createProvider,
  deleteProvider,
  getProvider,
  listProviders,
  updateProvider,
  type ProviderDeps,
} from "./admin.ts";
import type { ProviderRow } from "./store.ts";

/** Operators manage providers; the hosted pages list them and the users service reads one to sign in (internal). */
export const identityProvidersPolicy: ScopePolicy = {
  listIdentityProviders: [...ADMIN_READ_SCOPES, INTERNAL_SCOPE],
  getIdentityProvider: ADMIN_READ_SCOPES,
  createIdentityProvider: ADMIN_WRITE_SCOPES,
  updateIdentityProvider: ADMIN_WRITE_SCOPES,
  deleteIdentityProvider: ADMIN_WRITE_SCOPES,
  getUpstreamClient: [INTERNAL_SCOPE],
};

const toMessage = (p: ProviderRow): Omit<IdentityProvider, "$typeName"> => ({
  key: p.key,
  displayName: p.displayName,
  type: p.type,
  preset: p.preset,
  issuer: p.issuer,
  clientId: p.clientId,
  scopes: p.scopes,
  trustEmail: p.trustEmail,
  authorizationEndpoint: p.authorizationEndpoint,
  tokenEndpoint: p.tokenEndpoint,
  userinfoEndpoint: p.userinfoEndpoint,
  claims: p.claims as Record<string, string>,
  hasClientSecret: p.secretSealed !== "",
  createdAt: timestampFromDate(p.createdAt),
  updatedAt: timestampFromDate(p.updatedAt),
});

function required(field: string, value: string): string {
  if (!value) throw validationError([{ field, code: "required" }]);
  return value;
}

/** IdentityProvidersService over the domain module: maps requests in and results out. */
export function createIdentityProvidersService(
  deps: ProviderDeps & { notify?: RegistryNotify },
): ServiceImpl<typeof IdentityProvidersService> {
  // Every replica of the gateway (buttons) and of users (the round trip's configuration) drops the provider at once.
  const changed = async (key: string) => deps.notify?.("identity-provider", key);
  return {
    async listIdentityProviders() {
      return { providers: (await listProviders(deps.db)).map(toMessage) };
    },
    async getIdentityProvider(req) {
      return { provider: toMessage(await getProvider(deps.db, required("key", req.key))) };
    },
    async createIdentityProvider(req, ctx) {
      const p = req.provider;
      const input: ProviderSettings = {
        key: p?.key ?? "",
        displayName: p?.displayName ?? "",
        type: (p?.type ?? "") as ProviderSettings["type"],
        preset: p?.preset ?? "",
        issuer: p?.issuer ?? "",
        clientId: p?.clientId ?? "",
        scopes: p?.scopes ?? [],
        trustEmail: p?.trustEmail ?? false,
        authorizationEndpoint: p?.authorizationEndpoint ?? "",
        tokenEndpoint: p?.tokenEndpoint ?? "",
        userinfoEndpoint: p?.userinfoEndpoint ?? "",
        claims: p?.claims ?? {},
      };
      if (!input.type && !input.preset) input.type = "oidc";
      if (!input.scopes.length && input.type === "oidc" && !input.preset) input.scopes = ["openid", "email", "profile"];
      const stored = await createProvider(deps, input, req.clientSecret, auditContext(ctx), {
        validateOnly: req.validateOnly,
      });
      if (stored) await changed(stored.key);
      return { provider: stored && toMessage(stored) };
    },
    async updateIdentityProvider(req, ctx) {
      const stored = await updateProvider(
        deps,
        required("key", req.key),
        {
          displayName: req.displayName,
          issuer: req.issuer,
          clientId: req.clientId,
          clientSecret: req.clientSecret,
          scopes: req.scopes?.values,
          trustEmail: req.trustEmail,
          authorizationEndpoint: req.authorizationEndpoint,
          tokenEndpoint: req.tokenEndpoint,
          userinfoEndpoint: req.userinfoEndpoint,
          claims: req.claims?.values,
        },
        auditContext(ctx),
      );
      await changed(stored.key);
      return { provider: toMessage(stored) };
    },
    async deleteIdentityProvider(req, ctx) {
      await deleteProvider(deps.db, required("key", req.key), auditContext(ctx));
      await changed(req.key);
      return {};
    },
    async getUpstreamClient(req) {
      const p = await getProvider(deps.db, required("key", req.key));
      return { provider: toMessage(p), clientSecretSealed: p.secretSealed };
    },
  };
}
