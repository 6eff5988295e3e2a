import type { ServiceImpl } from "@connectrpc/connect";
import { domainError } from "@gatehouse/errors";
import { AuthService } from "@gatehouse/proto";
import type { ClientDirectory } from "./clients/directory.ts";
import { grants } from "./grants/index.ts";
import type { KeyManager } from "./keys/manager.ts";
import { verifyAccessToken, type TokenSettings } from "./tokens/access-token.ts";
import type { RevocationList } from "./tokens/revocation.ts";
import { authenticateClient, checkParameters, selectGrant } from "./token-endpoint/steps.ts";

export const SCOPES_SUPPORTED = ["apps:write", "apps:read", "admin", "users:access"];

export interface AuthServiceDeps {
  clients: ClientDirectory;
  keys: KeyManager;
  revocations: RevocationList;
  settings: TokenSettings & { signingAlg: string };
}

/** The OAuth 2.0 authorization server behind the gateway's /oauth2 endpoints. */
export function createAuthService(deps: AuthServiceDeps): ServiceImpl<typeof AuthService> {
  const active = async (token: string) => {
    const claims = await verifyAccessToken(deps.keys, deps.settings, token);
    if (!claims || (await deps.revocations.isRevoked(claims.jti))) return undefined;
    return claims;
  };

  return {
    async issueToken(req) {
      const client = await authenticateClient(deps.clients, req.client);
      const grant = selectGrant(grants, req.grantType);
      const params = { ...req.parameters };
      checkParameters(grant, params);
      const t = await grant.handler({ client, params, keys: deps.keys, settings: deps.settings });
      return { ...t, expiresIn: BigInt(t.expiresIn), refreshToken: t.refreshToken ?? "", idToken: t.idToken ?? "" };
    },

    // RFC 7662: an application sees only its own tokens; operators see any.
    async introspectToken(req) {
      const client = await authenticateClient(deps.clients, req.client);
      const claims = await active(req.token);
      if (!claims || (client.kind !== "operator" && claims.client_id !== client.clientId)) return { active: false };
      return {
        active: true,
        scope: claims.scope,
        clientId: claims.client_id,
        sub: claims.sub,
        exp: BigInt(claims.exp),
        iat: BigInt(claims.iat),
        iss: claims.iss ?? "",
        aud: Array.isArray(claims.aud) ? claims.aud : claims.aud ? [claims.aud] : [],
        jti: claims.jti,
        tokenType: "Bearer",
      };
    },

    // RFC 7009: invalid tokens are no error; another client's token is refused.
    async revokeToken(req) {
      const client = await authenticateClient(deps.clients, req.client);
      const claims = await verifyAccessToken(deps.keys, deps.settings, req.token);
      if (!claims) return {};
      if (claims.client_id !== client.clientId) throw domainError("UNAUTHORIZED_CLIENT", "the token was issued to another client");
      await deps.revocations.revoke(claims.jti, claims.exp);
      return {};
    },

    async getJwks() {
      return { jwksJson: JSON.stringify(deps.keys.jwks()) };
    },

    async getServerMetadata() {
      return {
        issuer: deps.settings.issuer,
        grantTypesSupported: [...grants.keys()],
        signingAlgValuesSupported: [deps.settings.signingAlg],
        scopesSupported: SCOPES_SUPPORTED,
      };
    },
  };
}
