import type { Kv } from "@gatehouse/kv";

// The keys every access-token verifier reads (libs/rpc's isRevoked, the standalone wiring):
// a revoked token id, and a revoked login session (every access token whose sid claim names it).
export const revokedTokenKey = (jti: string) => `revoked:at:${jti}`;
export const revokedSessionKey = (sid: string) => `revoked:sid:${sid}`;
// Per-user "not before" (issue 12, Keycloak's notBefore): every token of that subject issued before it is refused.
export const revokedSubjectKey = (sub: string) => `revoked:sub:${sub}`;

/** Revocation marks in the shared store, each kept only until the tokens it covers would expire anyway. */
export interface RevocationList {
  revoke(jti: string, exp: number): Promise<void>;
  /** Marks a session ended until `until` (seconds since the epoch): its access tokens are refused. */
  revokeSession(sid: string, until: number): Promise<void>;
  /** Whether the token id, the session it belongs to (sid claim), or its subject's tokens of that time (sub, iat) were revoked. */
  isRevoked(jti: string, sid?: string, sub?: string, iat?: number): Promise<boolean>;
  isSessionRevoked(sid: string): Promise<boolean>;
  // --- Per-user revocation (issue 12: admin lock, log out everywhere, erasure) ---
  /**
   * Refuses every token of `sub` issued before `notBeforeMs` (ms since the
   * epoch) until `until` (seconds since the epoch: when the last of them
   * would have expired anyway). A later call moves the mark forward.
   */
  revokeSubject(sub: string, notBeforeMs: number, until: number): Promise<void>;
  /** The subject's "not before" (ms since the epoch), if any. */
  subjectNotBefore(sub: string): Promise<number | undefined>;
}

/**
 * Whether a token issued at `iat` (seconds, the claim's precision) falls
 * before the subject's mark: it was issued in an earlier second. Tokens of
 * the very second of the mark are left to the session marks (every session
 * that existed is ended with its own mark), so a login right after a "log
 * out everywhere" is not refused.
 */
export const issuedBeforeMark = (iat: number, notBeforeMs: number) => iat < Math.floor(notBeforeMs / 1000);

/** The check other services' verifiers run against the same store (what isRevoked does). */
export function accessTokenRevocationCheck(kv: Kv): (jti: string, sid?: string, sub?: string, iat?: number) => Promise<boolean> {
  return async (jti, sid, sub, iat) => {
    const [token, session, subject] = await Promise.all([
      kv.get(revokedTokenKey(jti)),
      sid ? kv.get(revokedSessionKey(sid)) : null,
      sub && iat !== undefined ? kv.get(revokedSubjectKey(sub)) : null,
    ]);
    return token !== null || session !== null || (subject !== null && iat !== undefined && issuedBeforeMark(iat, Number(subject)));
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
    async revokeSubject(sub, notBeforeMs, until) {
      await kv.set(revokedSubjectKey(sub), String(Math.round(notBeforeMs)), Math.max(1, until - now()));
    },
    async subjectNotBefore(sub) {
      const v = await kv.get(revokedSubjectKey(sub));
      return v === null ? undefined : Number(v);
    },
  };
}
