import type { Kv } from "@gatehouse/kv";

// The keys every access-token verifier reads (libs/rpc's isRevoked, the standalone wiring):
// a revoked token id, and a revoked login session (every access token whose sid claim names it).
export const revokedTokenKey = (jti: string) => `revoked:at:${jti}`;
export const revokedSessionKey = (sid: string) => `revoked:sid:${sid}`;

/** Revocation marks in the shared store, each kept only until the tokens it covers would expire anyway. */
export interface RevocationList {
  revoke(jti: string, exp: number): Promise<void>;
  /** Marks a session ended until `until` (seconds since the epoch): its access tokens are refused. */
  revokeSession(sid: string, until: number): Promise<void>;
  /** Whether the token id, or the session it belongs to (sid claim), was revoked. */
  isRevoked(jti: string, sid?: string): Promise<boolean>;
  isSessionRevoked(sid: string): Promise<boolean>;
}

/** The check other services' verifiers run against the same store (what isRevoked does). */
export function accessTokenRevocationCheck(kv: Kv): (jti: string, sid?: string) => Promise<boolean> {
  return async (jti, sid) => {
    const [token, session] = await Promise.all([kv.get(revokedTokenKey(jti)), sid ? kv.get(revokedSessionKey(sid)) : null]);
    return token !== null || session !== null;
  };
}

export function createRevocationList(kv: Kv, now: () => number = () => Math.floor(Date.now() / 1000)): RevocationList {
  return {
    async revoke(jti, exp) {
      const ttl = exp - now();
      if (ttl > 0) await kv.set(revokedTokenKey(jti), String(exp), ttl);
    },
    async revokeSession(sid, until) {
      await kv.set(revokedSessionKey(sid), String(until), Math.max(1, until - now()));
    },
    isRevoked: accessTokenRevocationCheck(kv),
    async isSessionRevoked(sid) {
      return (await kv.get(revokedSessionKey(sid))) !== null;
    },
  };
}
