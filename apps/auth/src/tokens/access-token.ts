import { decodeProtectedHeader, jwtVerify, SignJWT, type JWTPayload } from "jose";
import { randomSecret } from "@gatehouse/secrets";
import type { KeyManager } from "../keys/manager.ts";

export interface TokenSettings {
  issuer: string;
  audience: string;
  accessTokenTtlSeconds: number;
}

export interface AccessTokenClaims extends JWTPayload {
  sub: string;
  client_id: string;
  scope: string;
  jti: string;
  exp: number;
  iat: number;
}

/** An RFC 9068 JWT access token: typ at+jwt, kid, iss, exp, aud, sub, client_id, iat, jti, scope. */
export async function signAccessToken(
  keys: KeyManager,
  settings: TokenSettings,
  claims: { sub: string; clientId: string; scope: string; extra?: Record<string, unknown> },
): Promise<{ token: string; claims: AccessTokenClaims }> {
  const k = keys.signing();
  const iat = Math.floor(Date.now() / 1000);
  const payload: AccessTokenClaims = {
    ...claims.extra,
    iss: settings.issuer,
    aud: settings.audience,
    sub: claims.sub,
    client_id: claims.clientId,
    scope: claims.scope,
    iat,
    exp: iat + settings.accessTokenTtlSeconds,
    jti: randomSecret(16),
  };
  const token = await new SignJWT(payload).setProtectedHeader({ alg: k.alg, typ: "at+jwt", kid: k.kid }).sign(k.key);
  return { token, claims: payload };
}

/** The claims of a valid access token of ours (signature, typ, iss, aud, exp), or undefined. */
export async function verifyAccessToken(keys: KeyManager, settings: TokenSettings, token: string): Promise<AccessTokenClaims | undefined> {
  try {
    const { kid } = decodeProtectedHeader(token);
    if (typeof kid !== "string") return undefined;
    const key = await keys.publicKey(kid);
    if (!key) return undefined;
    const { payload } = await jwtVerify(token, key, {
      issuer: settings.issuer,
      audience: settings.audience,
      typ: "at+jwt",
      algorithms: ["EdDSA", "ES256"],
    });
    const ok =
      typeof payload.sub === "string" && typeof payload.client_id === "string" && typeof payload.jti === "string" && typeof payload.exp === "number";
    return ok ? (payload as AccessTokenClaims) : undefined;
  } catch {
    return undefined;
  }
}
