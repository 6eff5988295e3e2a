import { domainError } from "@gatehouse/errors";
import type { Kv } from "@gatehouse/kv";
import { randomSecret } from "@gatehouse/secrets";

/** What an authorization code stands for: one login, bound to one authorization request. */
export interface CodeGrant {
  clientId: string;
  userId: string;
  redirectUri: string;
  scope: string;
  /** BASE64URL(SHA256(code_verifier)) (RFC 7636, S256 only). */
  codeChallenge: string;
  nonce?: string;
  /** When the user authenticated (seconds since the epoch). */
  authTime: number;
  /** An operator person's email (console sign-in): the session's access tokens carry it. */
  operatorEmail?: string;
}

interface StoredCode extends CodeGrant {
  /** Milliseconds since the epoch. */
  expiresAt: number;
  /** When it was issued (ms); absent in codes stored before it was recorded. */
  issuedAt?: number;
  /** The session the redemption opened (set once, atomically): a second redemption ends it. */
  redeemedBy?: string;
}

/** A code was presented: either it is yours now, or it was redeemed before (by `sid`). */
export type Redemption = { grant: CodeGrant; sid: string; issuedAt: number } | { replayOf: string };

export const DEFAULT_CODE_TTL_SECONDS = 60;
export const MIN_CODE_TTL_SECONDS = 60;
export const MAX_CODE_TTL_SECONDS = 600;
// A redeemed code is remembered this long, so that a replay (a stolen code used after the client used it) ends the session.
const REPLAY_MEMORY_SECONDS = 3600;

const codeKey = (hash: string) => `authcode:${hash}`;
const invalidGrant = (why: string) => domainError("INVALID_GRANT", why);

/**
 * Authorization codes (RFC 6749 section 4.1.2) in the shared kv, stored only
 * as a keyed hash. A code is redeemed once: a compare-and-set records the
 * session the redemption opens, so of two racing redemptions exactly one
 * wins and the other is a replay (RFC 6749 section 4.1.2: deny, and revoke
 * the tokens issued from the code).
 */
export function createAuthorizationCodes(deps: {
  kv: Kv;
  hashCode: (code: string) => string;
  ttlSeconds: number;
  now?: () => number;
}) {
  const { kv } = deps;
  const now = deps.now ?? Date.now;
  if (!(deps.ttlSeconds >= MIN_CODE_TTL_SECONDS && deps.ttlSeconds <= MAX_CODE_TTL_SECONDS)) {
    throw new Error(
      `the authorization code lifetime must be ${MIN_CODE_TTL_SECONDS}-${MAX_CODE_TTL_SECONDS} s, got ${deps.ttlSeconds}`,
    );
  }

  return {
    ttlSeconds: deps.ttlSeconds,

    async issue(grant: CodeGrant): Promise<string> {
      const code = randomSecret(32);
      const t = now();
      const stored: StoredCode = { ...grant, expiresAt: t + deps.ttlSeconds * 1000, issuedAt: t };
      await kv.set(codeKey(deps.hashCode(code)), JSON.stringify(stored), deps.ttlSeconds);
      return code;
    },

    /**
     * Spends a code of `clientId`. invalid_grant for an unknown or expired
     * code and for another client's code (which stays usable by its own
     * client). A replay is reported, not acted on: the grant ends the session.
     */
    async redeem(code: string, clientId: string): Promise<Redemption> {
      const key = codeKey(deps.hashCode(code));
      const raw = await kv.get(key);
      if (raw === null) throw invalidGrant("authorization code is invalid or expired");
      const stored = JSON.parse(raw) as StoredCode;
      if (stored.clientId !== clientId) throw invalidGrant("authorization code was issued to another client");
      if (stored.redeemedBy) return { replayOf: stored.redeemedBy };
      if (now() >= stored.expiresAt) throw invalidGrant("authorization code is invalid or expired");
      const sid = randomSecret(16);
      if (!(await kv.compareAndSet(key, raw, JSON.stringify({ ...stored, redeemedBy: sid }), REPLAY_MEMORY_SECONDS))) {
        // Another redemption won the race (or the code just expired): a replay of the winner's.
        const latest = await kv.get(key);
        const winner = latest === null ? undefined : (JSON.parse(latest) as StoredCode).redeemedBy;
        if (winner) return { replayOf: winner };
        throw invalidGrant("authorization code is invalid or expired");
      }
      const { expiresAt, issuedAt, redeemedBy: _r, ...grant } = stored;
      return { grant, sid, issuedAt: issuedAt ?? expiresAt - deps.ttlSeconds * 1000 };
    },
  };
}

export type AuthorizationCodes = ReturnType<typeof createAuthorizationCodes>;
