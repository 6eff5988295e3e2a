import { createHash } from "node:crypto";
import { JwtRejected, verifyJwt } from "@gatehouse/secrets";
import type { KeyManager } from "../keys/key-manager.ts";
import type { SigningAlg } from "../keys/key-material.ts";
import { TOKEN_ALGORITHMS } from "./access-token.ts";

/** What an ID token says about an authentication (OpenID Connect Core section 2). */
export interface IdTokenInput {
  clientId: string;
  userId: string;
  sid: string;
  /** When the user authenticated (seconds since the epoch); a refresh keeps the original one. */
  authTime: number;
  /** The authorization request's nonce (never on a refresh: OpenID Connect Core section 12.2). */
  nonce?: string;
  /** The access token issued beside it: at_hash. */
  accessToken: string;
}

/** The claims the logout endpoint reads back from an id_token_hint. */
export interface IdTokenHint {
  clientId: string;
  sub: string;
  sid?: string;
}

export interface IdTokens {
  issue(input: IdTokenInput): Promise<string>;
  /** The hint's claims when this server signed it (an expired token is still a valid hint); undefined otherwise. */
  readHint(token: string): Promise<IdTokenHint | undefined>;
}

/**
 * at_hash (OpenID Connect Core section 3.1.3.6): the left half of the hash
 * of the access token, base64url. The hash follows the signing algorithm:
 * SHA-256 for RS256 and ES256, SHA-512 for EdDSA with Ed25519 (as
 * relying-party libraries such as oauth4webapi compute it).
 */
export function accessTokenHash(accessToken: string, alg: SigningAlg): string {
  const digest = createHash(alg === "EdDSA" ? "sha512" : "sha256")
    .update(accessToken)
    .digest();
  return digest.subarray(0, digest.length / 2).toString("base64url");
}

/** ID tokens signed with the access tokens' keys (published in the same JWKS, kid in the header). */
export function createIdTokens(deps: {
  keys: KeyManager;
  settings: { issuer: string; accessTokenTtlSeconds: number };
}): IdTokens {
  const { issuer } = deps.settings;
  return {
    async issue(input) {
      const signing = deps.keys.signingKey();
      const iat = Math.floor(Date.now() / 1000);
      return signing.signIdToken({
        iss: issuer,
        sub: input.userId,
        aud: input.clientId,
        exp: iat + deps.settings.accessTokenTtlSeconds,
        iat,
        auth_time: input.authTime,
        ...(input.nonce ? { nonce: input.nonce } : {}),
        at_hash: accessTokenHash(input.accessToken, signing.alg),
        sid: input.sid,
      });
    },

    async readHint(token) {
      // verifyJwt refuses anything that is not a compact JWS of ours (malformed): no shape check first.
      let payload: Record<string, unknown>;
      try {
        ({ payload } = await verifyJwt(token, {
          key: (kid) => deps.keys.verificationKey(kid),
          issuer,
          typ: "JWT",
          algorithms: TOKEN_ALGORITHMS,
          requiredClaims: ["sub", "aud", "exp"],
        }));
      } catch (err) {
        // The signature is checked before the claims: an expired token is ours, just old.
        if (!(err instanceof JwtRejected) || err.reason !== "expired" || !err.payload) return undefined;
        payload = err.payload;
        if (payload.iss !== issuer) return undefined;
      }
      const aud = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
      if (aud.length !== 1 || typeof aud[0] !== "string" || typeof payload.sub !== "string") return undefined;
      // An access token (typ at+jwt) never passes as a hint: typ is checked above.
      return { clientId: aud[0], sub: payload.sub, ...(typeof payload.sid === "string" ? { sid: payload.sid } : {}) };
    },
  };
}
