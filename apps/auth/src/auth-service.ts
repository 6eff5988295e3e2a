import type { ServiceImpl } from "@connectrpc/connect";
import type { Logger } from "@gatehouse/logging";
import type { AuthService } from "@gatehouse/proto";
import { USER_SCOPES } from "@gatehouse/rpc";
import type { ClientDirectory } from "./clients/client-directory.ts";
import type { AuthorizationCodes } from "./codes/authorization-codes.ts";
import type { DeviceAuthorizations } from "./device/devices.ts";
import { issueAuthorizationCode } from "./codes/issue-code.ts";
import type { GrantRegistry } from "./grants/index.ts";
import { introspectToken } from "./introspection/introspect.ts";
import type { KeyManager } from "./keys/key-manager.ts";
import { revokeToken } from "./token-revocation/revoke.ts";
import { endSession } from "./sessions/end-session.ts";
import type { Sessions } from "./sessions/sessions.ts";
import { issueUserSession, revokeUserSession } from "./sessions/user-sessions.ts";
import type { AuthSettings } from "./settings.ts";
import { runTokenEndpoint } from "./token-endpoint/index.ts";
import type { AccessTokens } from "./tokens/access-token.ts";
import type { IdTokens } from "./tokens/id-token.ts";
import type { RevocationList } from "./revocation/revocation-list.ts";

export interface AuthServiceDeps {
  clients: ClientDirectory;
  grants: GrantRegistry;
  keys: KeyManager;
  tokens: AccessTokens;
  revocations: RevocationList;
  sessions: Sessions;
  codes: AuthorizationCodes;
  devices: DeviceAuthorizations;
  idTokens: IdTokens;
  settings: AuthSettings;
  logger?: Logger;
}

/** AuthService: the OAuth 2.0 authorization server over Connect (the gateway speaks the HTTP forms). */
export function createAuthService(deps: AuthServiceDeps): ServiceImpl<typeof AuthService> {
  return {
    async issueToken(req) {
      const t = await runTokenEndpoint(deps, {
        client: req.client,
        grantType: req.grantType,
        parameters: req.parameters,
      });
      return {
        accessToken: t.accessToken,
        tokenType: t.tokenType,
        expiresIn: BigInt(t.expiresIn),
        scope: t.scope,
        refreshToken: t.refreshToken ?? "",
        idToken: t.idToken ?? "",
      };
    },

    async introspectToken(req) {
      const i = await introspectToken(deps, { client: req.client, token: req.token });
      if (!i.active) return { active: false };
      return {
        active: true,
        scope: i.scope,
        clientId: i.client_id,
        sub: i.sub,
        exp: BigInt(i.exp),
        iat: BigInt(i.iat),
        iss: i.iss,
        aud: i.aud,
        jti: i.jti ?? "",
        tokenType: i.token_type,
      };
    },

    async revokeToken(req) {
      await revokeToken(deps, { client: req.client, token: req.token });
      return {};
    },

    async issueUserSession(req) {
      const s = await issueUserSession(deps, { userId: req.userId, clientId: req.clientId, scope: req.scope });
      return { ...s, expiresIn: BigInt(s.expiresIn) };
    },

    async revokeUserSession(req) {
      await revokeUserSession(deps, { sessionId: req.sessionId });
      return {};
    },

    async issueAuthorizationCode(req) {
      const c = await issueAuthorizationCode(deps, req);
      return { code: c.code, expiresIn: BigInt(c.expiresIn) };
    },

    async endSession(req) {
      return endSession(deps, { idTokenHint: req.idTokenHint, clientId: req.clientId });
    },

    async checkRevocation(req) {
      const revoked = await deps.revocations.isRevoked({
        jti: req.jti,
        sub: req.sub,
        sid: req.sid || undefined,
        iat: Number(req.iat) || undefined,
      });
      return { revoked };
    },

    async getJwks() {
      return { jwksJson: JSON.stringify(deps.keys.jwks()) };
    },

    async getServerMetadata() {
      return {
        issuer: deps.settings.issuer,
        grantTypesSupported: [...deps.grants.keys()],
        signingAlgValuesSupported: [deps.settings.signingAlg],
        // Discovery lists what a relying party may ask for at /authorize; the
        // client_credentials scopes are per client and not advertised.
        scopesSupported: [...USER_SCOPES],
      };
    },
  };
}
