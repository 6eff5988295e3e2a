import type { KeyObject } from "node:crypto";

/**
 * The tokens whose signature a process has verified, each with the key that
 * verified it: a resource server introspects the same access token on every
 * call it serves, and a signature over the same bytes with the same key is
 * valid forever, so it is checked once (an RS256 verify is ~20 µs, most of an
 * introspection's own work). Exact, not a cache of anything that can change:
 * the caller still resolves the kid to its key on every use (a retired key
 * misses), and every claim (exp, iss, aud, typ) and revocation is checked
 * again each time. Keyed by the whole token, never by its signature alone
 * (a known signature pasted under other claims must not pass). Bounded: the
 * least recently verified go first (~1 KB a token).
 */
export interface SignatureMemo {
  verified(token: string, key: KeyObject): boolean;
  remember(token: string, key: KeyObject): void;
}

export function signatureMemo(maxEntries = 1024): SignatureMemo {
  const keys = new Map<string, KeyObject>();
  return {
    verified: (token, key) => keys.get(token) === key,
    remember(token, key) {
      keys.delete(token);
      keys.set(token, key);
      // Insertion order: the first key is the oldest.
      if (keys.size > maxEntries) keys.delete(keys.keys().next().value!);
    },
  };
}
