import { decodeProtectedHeader } from "jose";
import { pooledRandomSecret, signatureMemo, verifyJwt } from "@gatehouse/secrets";
import type { KeyManager } from "../keys/key-manager.ts";
import type { RevocationList } from "../revocation/revocation-list.ts";

/** The RFC 9068 claims of a Gatehouse access token. */
export interface AccessTokenClaims {
  iss: string;
  sub: string;
  aud: string[];
  exp: number;
  iat: number;
  jti: string;
  client_id: string;
  scope: string;
  /** The login session of a user's token (absent for client_credentials). */
  sid?: string;
  /**
   * The PKCE challenge (S256) of the authorization request the token comes
   * from: a CHALLENGE_CODE_TOKEN (contract section 4). Kept by its refreshes.
   */
  code_challenge?: string;
  /**
   * The application a public client (an entry point id in client_id) acts
   * for; absent when client_id is the application itself. Resource servers
   * that think in applications (the user endpoints, introspection) read it.
   */
  app_id?: string;
  /** The email of an operator person (a console session): services name them in audit entries. */
  email?: string;
}

/** The JWS algorithms of our tokens: whatever SIGNING_ALG was, older keys still verify until retired. */
export const TOKEN_ALGORITHMS = ["RS256", "ES256", "EdDSA"];

export interface AccessTokenSettings {
  issuer: string;
  audience: string;
  accessTokenTtlSeconds: number;
}

export interface IssuedAccessToken {
  token: string;
  claims: AccessTokenClaims;
  expiresIn: number;
}

export interface AccessTokens {
  issue(grant: {
    clientId: string;
    /** The application of a public client; the claim app_id is written only when it differs from clientId. */
    applicationId?: string;
    subject: string;
    scopes: readonly string[];
    sid?: string;
    codeChallenge?: string;
    /** An operator person's email (the claim `email`). */
    email?: string;
  }): Promise<IssuedAccessToken>;
  /** The claims of a token this server issued that is still valid and not revoked; undefined otherwise. */
  verify(token: string): Promise<AccessTokenClaims | undefined>;
}

const TYP = "at+jwt";

/** RFC 9068 JWT access tokens signed with the newest active key. */
export function createAccessTokens(deps: {
  keys: KeyManager;
  revocations: RevocationList;
  settings: AccessTokenSettings;
}): AccessTokens {
  const { settings } = deps;
  // Introspection asks about the same token on every call a resource server serves.
  const signatures = signatureMemo();
  return {
    async issue({ clientId, applicationId, subject, scopes, sid, codeChallenge, email }) {
      const appId = applicationId && applicationId !== clientId ? applicationId : undefined;
      const signing = deps.keys.signingKey();
      const iat = Math.floor(Date.now() / 1000);
      const exp = iat + settings.accessTokenTtlSeconds;
      const jti = pooledRandomSecret(16);
      const scope = scopes.join(" ");
      const token = await signing.signAccessToken({
        iss: settings.issuer,
        sub: subject,
        aud: settings.audience,
        iat,
        exp,
        jti,
        client_id: clientId,
        scope,
        ...(sid === undefined ? {} : { sid }),
        ...(codeChallenge ? { code_challenge: codeChallenge } : {}),
        ...(appId ? { app_id: appId } : {}),
        ...(email ? { email } : {}),
      });
      const claims: AccessTokenClaims = {
        iss: settings.issuer,
        sub: subject,
        aud: [settings.audience],
        exp,
        iat,
        jti,
        client_id: clientId,
        scope,
      };
      if (sid !== undefined) claims.sid = sid;
      if (codeChallenge) claims.code_challenge = codeChallenge;
      if (appId) claims.app_id = appId;
      if (email) claims.email = email;
      return { token, claims, expiresIn: settings.accessTokenTtlSeconds };
    },

    async verify(token) {
      // verifyJwt refuses anything but a compact JWS whose header is ours (one parse of the header).
      let payload: Record<string, unknown>;
      try {
        ({ payload } = await verifyJwt(token, {
          key: (kid) => deps.keys.verificationKey(kid),
          issuer: settings.issuer,
          audience: settings.audience,
          typ: TYP,
          algorithms: TOKEN_ALGORITHMS,
          requiredClaims: ["exp", "iat", "jti", "sub", "client_id"],
          signatures,
        }));
      } catch {
        return undefined;
      }
      const { jti, sub, client_id: clientId, scope = "", aud, sid, code_challenge: challenge, app_id: appId } = payload;
      // Required, and verifyJwt refuses an exp or iat that is not a number.
      const exp = payload.exp as number;
      const iat = payload.iat as number;
      if (
        typeof jti !== "string" ||
        typeof sub !== "string" ||
        typeof clientId !== "string" ||
        typeof scope !== "string"
      ) {
        return undefined;
      }
      if (sid !== undefined && typeof sid !== "string") return undefined;
      // Outside the try: a store that cannot answer is a 503, never "invalid token".
      if (await deps.revocations.isRevoked({ jti, sub, sid, iat })) return undefined;
      const audiences = Array.isArray(aud) ? aud : [aud ?? ""];
      const claims: AccessTokenClaims = {
        iss: settings.issuer,
        sub,
        aud: audiences,
        exp,
        iat,
        jti,
        client_id: clientId,
        scope,
      };
      if (sid !== undefined) claims.sid = sid;
      if (typeof challenge === "string") claims.code_challenge = challenge;
      if (typeof appId === "string") claims.app_id = appId;
      return claims;
    },
  };
}

/** Three base64url parts whose header parses: anything else (opaque tokens, garbage) is not ours to verify. */
export function looksLikeJwt(token: string): boolean {
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token)) return false;
  try {
    decodeProtectedHeader(token);
    return true;
  } catch {
    return false;
  }
}
