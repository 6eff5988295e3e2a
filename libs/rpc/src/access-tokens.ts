import type { JsonWebKey } from "node:crypto";
import type { JSONWebKeySet } from "jose";
import { JwtRejected, publicKeyFor, verifyJwt, type JwsAlg, type JwtVerifyKey } from "@gatehouse/secrets";
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
  isRevoked?: (token: {
    jti: string;
    sub: string;
    sid?: string | undefined;
    iat?: number | undefined;
  }) => Promise<boolean>;
  /** How long a fetched key set is trusted before it is fetched again. */
  cacheMs?: number;
  /** How long a verified signature is trusted (./verified-tokens.ts); 0 verifies every time. */
  verifiedTtlMs?: number;
}

const ALGORITHMS: readonly JwsAlg[] = ["RS256", "ES256", "EdDSA"];
// A JWK without `alg` verifies the algorithm of its type (as jose's local key set matched it).
const algOfKey = (jwk: JSONWebKeySet["keys"][number]): string | undefined =>
  jwk.alg ??
  (jwk.kty === "RSA"
    ? "RS256"
    : jwk.kty === "EC" && jwk.crv === "P-256"
      ? "ES256"
      : jwk.kty === "OKP" && jwk.crv === "Ed25519"
        ? "EdDSA"
        : undefined);

/**
 * The set's verification keys by kid, the ones jose's local key set would
 * pick: a signing key (`use` sig or unset, `key_ops` with verify or unset) of
 * one of our algorithms. A kid named twice is ambiguous and picks nothing;
 * our tokens always name their kid.
 */
export function keysByKid(jwks: JSONWebKeySet): Map<string, JwtVerifyKey> {
  const keys = new Map<string, JwtVerifyKey>();
  const ambiguous = new Set<string>();
  for (const jwk of jwks.keys) {
    const alg = algOfKey(jwk);
    if (typeof jwk.kid !== "string" || !ALGORITHMS.includes(alg as JwsAlg)) continue;
    if ((jwk.use !== undefined && jwk.use !== "sig") || (jwk.key_ops !== undefined && !jwk.key_ops.includes("verify")))
      continue;
    if (keys.has(jwk.kid)) ambiguous.add(jwk.kid);
    const key = publicKeyFor(jwk as JsonWebKey, alg as JwsAlg);
    if (key) keys.set(jwk.kid, { alg: alg as JwsAlg, key });
  }
  for (const kid of ambiguous) keys.delete(kid);
  return keys;
}

/**
 * Verifies RFC 9068 access tokens (typ at+jwt) against the auth service's keys,
 * refetching the key set when it is stale or a token names an unknown kid.
 */
export function createAccessTokenVerifier(opts: AccessTokenVerifierOptions) {
  const cacheMs = opts.cacheMs ?? 300_000;
  let keys: { byKid: Map<string, JwtVerifyKey>; at: number } | undefined;
  let lastForced = 0;

  async function load(force: boolean) {
    if (keys && !force && Date.now() - keys.at < cacheMs) return keys;
    const jwks = await opts.fetchJwks();
    keys = { byKid: keysByKid(jwks), at: Date.now() };
    return keys;
  }

  async function keyOf(kid: string): Promise<JwtVerifyKey | undefined> {
    let k = await load(false);
    if (!k.byKid.has(kid) && Date.now() - lastForced > 10_000) {
      lastForced = Date.now();
      k = await load(true);
    }
    return k.byKid.get(kid);
  }

  const verified = verifiedTokenCache<Record<string, unknown>>({ ttlMs: opts.verifiedTtlMs ?? 60_000 });

  /**
   * The token's claims once its signature, issuer, audience and type check
   * out; undefined otherwise. A key set that cannot be fetched is an error
   * (the caller answers 503), never "invalid".
   */
  async function verifiedClaims(token: string): Promise<Record<string, unknown> | undefined> {
    const known = verified.get(token);
    if (known) return known;
    try {
      const { payload } = await verifyJwt(token, {
        key: keyOf,
        issuer: opts.issuer,
        audience: opts.audiences,
        typ: "at+jwt",
        algorithms: ALGORITHMS,
      });
      verified.put(token, payload, payload.exp);
      return payload;
    } catch (err) {
      if (err instanceof JwtRejected) return undefined;
      throw err;
    }
  }

  return async function verify(token: string): Promise<Principal | undefined> {
    const payload = await verifiedClaims(token);
    if (!payload) return undefined;
    if (typeof payload.jti !== "string" || typeof payload.sub !== "string") return undefined;
    const sid = typeof payload.sid === "string" ? payload.sid : undefined;
    const iat = typeof payload.iat === "number" ? payload.iat : undefined;
    if (opts.isRevoked && (await opts.isRevoked({ jti: payload.jti, sub: payload.sub, sid, iat }))) return undefined;
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
