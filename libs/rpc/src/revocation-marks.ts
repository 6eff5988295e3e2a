import type { Kv } from "@gatehouse/kv";

/** What a revocation check knows of a verified access token. */
export interface RevocableToken {
  jti: string;
  sub: string;
  sid?: string | undefined;
  /** Issued at, seconds since the epoch. */
  iat?: number | undefined;
}

interface RevocationKind {
  /** The mark's key segment: `revoked:<key>:<id>`. */
  key: string;
  /** The id this kind of revocation names in a token; undefined when the token has none. */
  idOf(token: RevocableToken): string | undefined;
  /** Whether a mark with this value refuses the token (a "not before" kind compares iat). */
  refuses(value: string, token: RevocableToken): boolean;
}

/**
 * Every kind of revocation. Adding one is one entry here plus its writer in
 * revocation-list.ts: the table, the marks, the reload after a lost store and
 * every verifier follow.
 */
export const REVOCATION_KINDS = {
  /** One access token, by its jti. */
  token: { key: "at", idOf: (t) => t.jti || undefined, refuses: () => true },
  /** Every access token of a login session, by its sid claim. */
  session: { key: "sid", idOf: (t) => t.sid || undefined, refuses: () => true },
  /**
   * Every token of a user issued before a time (Keycloak's "not before"; log
   * out everywhere, lock, erasure), by sub; the value is the first second
   * (since the epoch) whose tokens are accepted again. A token without iat is refused.
   */
  subject: { key: "sub", idOf: (t) => t.sub || undefined, refuses: (notBefore, t) => (t.iat ?? 0) < Number(notBefore) },
} satisfies Record<string, RevocationKind>;

export type RevocationKindName = keyof typeof REVOCATION_KINDS;

const kinds = Object.entries(REVOCATION_KINDS) as [RevocationKindName, RevocationKind][];

export const markKey = (kind: RevocationKindName, id: string) => `revoked:${REVOCATION_KINDS[kind].key}:${id}`;

/**
 * Present (value LOADED) while the store holds every live revocation of the
 * database. A store that lost its data (a restart of `npm start`, a Redis
 * without persistence, a FLUSHALL) lacks it, so no verifier trusts an empty
 * store: the marks are reloaded first.
 */
export const LOADED_KEY = "revoked:loaded";
export const LOADED = "loaded";

/**
 * What a check of `token` reads, split from its verdict so that the read can
 * join another kv step: the keys (the sentinel, then the token's marks), and
 * the verdict on their values, undefined when the sentinel was missing (the
 * store cannot tell). `verdict` may be given the token again with its iat
 * learned meanwhile (same jti, sub and sid).
 */
export function revocationRead(token: RevocableToken) {
  const asked = kinds.flatMap(([name, kind]) => {
    const id = kind.idOf(token);
    return id === undefined ? [] : [{ kind, key: markKey(name, id) }];
  });
  return {
    keys: [LOADED_KEY, ...asked.map((a) => a.key)],
    verdict([loaded, ...values]: (string | null)[], t: RevocableToken = token): boolean | undefined {
      if (loaded !== LOADED) return undefined;
      return asked.some((a, i) => values[i] != null && a.kind.refuses(values[i]!, t));
    },
  };
}

/**
 * The hot-path check every verifier runs: one kv round trip (MGET of the
 * sentinel and the token's marks). When the sentinel is missing the store
 * cannot tell, and `undecided` answers instead (the auth service reloads the
 * marks; other processes ask the auth service).
 */
export function revocationCheck(
  kv: Kv,
  undecided: (token: RevocableToken) => Promise<boolean>,
): (token: RevocableToken) => Promise<boolean> {
  return async (token) => {
    const read = revocationRead(token);
    return read.verdict(await kv.getMany(read.keys)) ?? undecided(token);
  };
}
