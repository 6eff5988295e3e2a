import { createLocalJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload } from "jose";
import type { Principal } from "./principal.ts";
import { verifiedTokenCache } from "./verified-tokens.ts";

export interface AccessTokenVerifierOptions {
  /** Fetches the JWK Set of the auth service (RPC or in-process). */
  fetchJwks: () => Promise<JSONWebKeySet>;
  issuer: string;
  /** Accepted audiences; a token must name one of them. */
  audiences: string[];
  /**
   * Whether the token was revoked (its jti, its session, ...); shared state in
   * Redis. It may throw (the store is unreachable): that is not "invalid", the
   * error reaches the caller (503).
   */
  isRevoked?: (token: { jti: string; sub: string; sid?: string | undefined; iat?: number | undefined }) => Promise<boolean>;
  /** How long a fetched key set is trusted before it is fetched again. */
  cacheMs?: number;
  /** How long a verified signature is trusted (./verified-tokens.ts); 0 verifies every time. */
  verifiedTtlMs?: number;
}

/**
 * Verifies RFC 9068 access tokens (typ at+jwt) against the auth service's keys,
 * refetching the key set when it is stale or a token names an unknown kid.
 */
export function createAccessTokenVerifier(opts: AccessTokenVerifierOptions) {
  const cacheMs = opts.cacheMs ?? 300_000;
  let keys: { set: ReturnType<typeof createLocalJWKSet>; kids: Set<string>; at: number } | undefined;
  let lastForced = 0;

  async function load(force: boolean) {
    if (keys && !force && Date.now() - keys.at < cacheMs) return keys;
    const jwks = await opts.fetchJwks();
    keys = { set: createLocalJWKSet(jwks), kids: new Set(jwks.keys.map((k) => k.kid ?? "")), at: Date.now() };
    return keys;
  }

  const verified = verifiedTokenCache<JWTPayload>({ ttlMs: opts.verifiedTtlMs ?? 60_000 });

  /** The token's claims once its signature, issuer, audience and type check out; undefined otherwise. */
  async function verifiedClaims(token: string): Promise<JWTPayload | undefined> {
    const known = verified.get(token);
    if (known) return known;
    let header: { kid?: string };
    try {
      header = JSON.parse(Buffer.from(token.split(".")[0] ?? "", "base64url").toString("utf8")) as { kid?: string };
    } catch {
      return undefined;
    }
    let k = await load(false);
    if (header.kid && !k.kids.has(header.kid) && Date.now() - lastForced > 10_000) {
      lastForced = Date.now();
      k = await load(true);
    }
    try {
      const { payload } = await jwtVerify(token, k.set, {
        issuer: opts.issuer,
        audience: opts.audiences,
        typ: "at+jwt",
        algorithms: ["RS256", "ES256", "EdDSA", "Ed25519"],
      });
      verified.put(token, payload, payload.exp);
      return payload;
    } catch {
      return undefined;
    }
  }

  return async function verify(token: string): Promise<Principal | undefined> {
    const payload = await verifiedClaims(token);
    if (!payload) return undefined;
    if (typeof payload.jti !== "string" || typeof payload.sub !== "string") return undefined;
    const sid = typeof payload.sid === "string" ? payload.sid : undefined;
    if (opts.isRevoked && (await opts.isRevoked({ jti: payload.jti, sub: payload.sub, sid, iat: payload.iat }))) return undefined;
    const scope = typeof payload.scope === "string" ? payload.scope : "";
    return {
      subject: payload.sub,
      clientId: typeof payload.client_id === "string" ? payload.client_id : undefined,
      scopes: new Set(scope.split(" ").filter(Boolean)),
      internal: false,
      token,
      claims: payload,
    };
  };
}

export type AccessTokenVerifier = ReturnType<typeof createAccessTokenVerifier>;
