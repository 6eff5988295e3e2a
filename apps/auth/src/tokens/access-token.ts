import { decodeProtectedHeader, jwtVerify, type JWTHeaderParameters } from "jose";
import { pooledRandomSecret } from "@gatehouse/secrets";
import type { KeyManager } from "../keys/key-manager.ts";
import type { RevocationList } from "./revocation-list.ts";

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
}

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
  issue(grant: { clientId: string; subject: string; scopes: readonly string[]; sid?: string; codeChallenge?: string }): Promise<IssuedAccessToken>;
  /** The claims of a token this server issued that is still valid and not revoked; undefined otherwise. */
  verify(token: string): Promise<AccessTokenClaims | undefined>;
}

const TYP = "at+jwt";

/** RFC 9068 JWT access tokens signed with the newest active key. */
export function createAccessTokens(deps: { keys: KeyManager; revocations: RevocationList; settings: AccessTokenSettings }): AccessTokens {
  const { settings } = deps;
  return {
    async issue({ clientId, subject, scopes, sid, codeChallenge }) {
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
      });
      const claims: AccessTokenClaims = { iss: settings.issuer, sub: subject, aud: [settings.audience], exp, iat, jti, client_id: clientId, scope };
      if (sid !== undefined) claims.sid = sid;
      if (codeChallenge) claims.code_challenge = codeChallenge;
      return { token, claims, expiresIn: settings.accessTokenTtlSeconds };
    },

    async verify(token) {
      if (!looksLikeJwt(token)) return undefined;
      try {
        const { payload } = await jwtVerify(token, (header: JWTHeaderParameters) => keyFor(deps.keys, header), {
          issuer: settings.issuer,
          audience: settings.audience,
          typ: TYP,
          algorithms: ["EdDSA", "ES256"],
          requiredClaims: ["exp", "iat", "jti", "sub", "client_id"],
        });
        const { jti, sub, client_id: clientId, scope = "", exp, iat, aud, sid, code_challenge: challenge } = payload;
        if (typeof jti !== "string" || typeof sub !== "string" || typeof clientId !== "string" || typeof scope !== "string") {
          return undefined;
        }
        if (sid !== undefined && typeof sid !== "string") return undefined;
        if (await deps.revocations.isRevoked(jti, sid, sub, iat)) return undefined;
        const audiences = Array.isArray(aud) ? aud : [aud ?? ""];
        const claims: AccessTokenClaims = { iss: settings.issuer, sub, aud: audiences, exp: exp!, iat: iat!, jti, client_id: clientId, scope };
        if (sid !== undefined) claims.sid = sid;
        if (typeof challenge === "string") claims.code_challenge = challenge;
        return claims;
      } catch {
        return undefined;
      }
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

export async function keyFor(keys: KeyManager, header: JWTHeaderParameters) {
  const found = typeof header.kid === "string" ? await keys.verificationKey(header.kid) : undefined;
  // The key's own algorithm, never the one the token claims (no algorithm confusion).
  if (!found || found.alg !== header.alg) throw new Error("unknown signing key");
  return found.key;
}
