export interface VerifiedTokenCacheOptions {
  /** Most tokens held; the least recently used goes first. */
  maxEntries?: number;
  /** Longest a verified signature is trusted without checking it again. */
  ttlMs?: number;
  now?: () => number;
}

/**
 * What a verified token stands for (its claims, or the principal made of
 * them), by the token string, for tokens whose signature, issuer, audience
 * and type were verified, until the earlier of the token's `exp`
 * and a short TTL. An application sends the same APP_TOKEN on every login,
 * so the RS256 verify is paid once per TTL instead of once per request.
 * Only signatures are remembered: revocation is still asked on every use
 * (the caller does), so a revoked token is refused at once on every replica.
 * The TTL stays below the key set's cache (300 s), so a retired key is not
 * trusted here longer than it already is there.
 */
export function verifiedTokenCache<T>(opts: VerifiedTokenCacheOptions = {}) {
  const maxEntries = opts.maxEntries ?? 1000;
  const ttlMs = opts.ttlMs ?? 60_000;
  const now = opts.now ?? Date.now;
  // A Map iterates in insertion order: re-inserting on a hit makes the first key the least recently used.
  const entries = new Map<string, { value: T; until: number }>();

  return {
    get(token: string): T | undefined {
      const hit = entries.get(token);
      if (!hit) return undefined;
      entries.delete(token);
      if (now() >= hit.until) return undefined;
      entries.set(token, hit);
      return hit.value;
    },
    /** Remembers a verified token; its `exp` (seconds) bounds it, and a token without one is not kept. */
    put(token: string, value: T, exp: unknown): void {
      if (typeof exp !== "number") return;
      const until = Math.min(exp * 1000, now() + ttlMs);
      if (until <= now()) return;
      entries.delete(token);
      entries.set(token, { value, until });
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
    get size() {
      return entries.size;
    },
  };
}
