import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import type { Principal } from "./principal.ts";

export interface AccessTokenVerifierOptions {
  /** Fetches the JWK Set of the auth service (RPC or in-process). */
  fetchJwks: () => Promise<JSONWebKeySet>;
  issuer: string;
  /** Accepted audiences; a token must name one of them. */
  audiences: string[];
  /**
   * Whether a token id, the session (sid) it belongs to, or every token of its
   * subject issued before some time (sub, iat) was revoked; shared state in Redis.
   */
  isRevoked?: (jti: string, sid?: string, sub?: string, iat?: number) => Promise<boolean>;
  /** How long a fetched key set is trusted before it is fetched again. */
  cacheMs?: number;
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

  return async function verify(token: string): Promise<Principal | undefined> {
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
        algorithms: ["EdDSA", "ES256", "Ed25519"],
      });
      if (typeof payload.jti !== "string" || typeof payload.sub !== "string") return undefined;
      const sid = typeof payload.sid === "string" ? payload.sid : undefined;
      if (opts.isRevoked && (await opts.isRevoked(payload.jti, sid, payload.sub, payload.iat))) return undefined;
      const scope = typeof payload.scope === "string" ? payload.scope : "";
      return {
        subject: payload.sub,
        clientId: typeof payload.client_id === "string" ? payload.client_id : undefined,
        scopes: new Set(scope.split(" ").filter(Boolean)),
        internal: false,
        token,
        claims: payload,
      };
    } catch {
      return undefined;
    }
  };
}

export type AccessTokenVerifier = ReturnType<typeof createAccessTokenVerifier>;
