import type { Queryable } from "@gatehouse/db";
import { storeUnavailable, type Kv } from "@gatehouse/kv";
import type { Logger } from "@gatehouse/logging";
import {
  LOADED,
  LOADED_KEY,
  markKey,
  revocationCheck,
  revocationRead,
  type RevocableToken,
  type RevocationKindName,
} from "@gatehouse/rpc";
import { revocationLoader, type LoaderOptions } from "./loader.ts";
import { revocationStore } from "./store.ts";

/**
 * Revocations: a row in auth.revocations (the source of truth, so nothing
 * revives after a restart) and a mark in the shared kv (the hot path), each
 * kept only until the tokens it covers would have expired anyway.
 */
export interface RevocationList {
  revoke(jti: string, exp: number): Promise<void>;
  /** Marks a session ended until `until` (seconds since the epoch): its access tokens are refused. */
  revokeSession(sid: string, until: number): Promise<void>;
  /** Whether the token was revoked (its id, its session); reloads the marks first when the kv lost them. */
  isRevoked(token: RevocableToken): Promise<boolean>;
  isSessionRevoked(sid: string): Promise<boolean>;
  /**
   * isRevoked in two halves, so that its reads join another kv step: the keys
   * to read, then the verdict on their values (`iat` when learned meanwhile;
   * reloads the marks and reads again when the kv had lost them).
   */
  read(token: RevocableToken): { keys: string[]; isRevoked(values: (string | null)[], iat?: number): Promise<boolean> };
  /**
   * Refuses every token of `sub` issued before the second `notBefore`
   * (seconds since the epoch) until `until` (seconds: when the last of them
   * would have expired anyway). A later call moves the mark forward.
   */
  revokeSubject(sub: string, notBefore: number, until: number): Promise<void>;
  /** The subject's "not before" (seconds since the epoch), if any. */
  subjectNotBefore(sub: string): Promise<number | undefined>;
  /** Loads the marks from the database unless the kv holds them (at start, and whenever they were lost). */
  ensureLoaded(): Promise<void>;
}

export interface RevocationDeps {
  db: Queryable;
  kv: Kv;
  logger?: Logger | undefined;
  now?: () => number;
  loader?: LoaderOptions;
}

export function createRevocationList(deps: RevocationDeps): RevocationList {
  const now = deps.now ?? (() => Math.floor(Date.now() / 1000));
  const store = revocationStore(deps.db);
  const loader = revocationLoader(deps, deps.loader);

  /** The row first, then the mark: a failure after the row leaves it durable, and the marks are rebuilt. */
  async function revoke(kind: RevocationKindName, id: string, until: number, value = String(until)): Promise<void> {
    const ttl = until - now();
    if (ttl <= 0) return;
    await store.put({ kind, id, value, until });
    try {
      await deps.kv.set(markKey(kind, id), value, ttl);
    } catch (err) {
      // The store may still claim to be complete; drop that claim so that the next check reloads.
      await deps.kv.del(LOADED_KEY).catch(() => undefined);
      throw storeUnavailable(err);
    }
  }

  // After a load the store must decide; if it lost the marks again at once, fail closed.
  const afterLoad = revocationCheck(deps.kv, () =>
    Promise.reject(storeUnavailable(new Error("revocation marks lost again"))),
  );
  const isRevoked = revocationCheck(deps.kv, async (token) => {
    await loader.ensureLoaded();
    return afterLoad(token);
  });

  /** A mark's value, from a store that holds every mark (loaded first if it lost them). */
  async function markOf(kind: RevocationKindName, id: string): Promise<string | undefined> {
    for (let attempt = 0; ; attempt++) {
      const [loaded, value] = await deps.kv.getMany([LOADED_KEY, markKey(kind, id)]);
      if (loaded === LOADED) return value ?? undefined;
      if (attempt > 0) throw storeUnavailable(new Error("revocation marks lost again"));
      await loader.ensureLoaded();
    }
  }

  return {
    revoke: (jti, exp) => revoke("token", jti, exp),
    revokeSession: (sid, until) => revoke("session", sid, Math.max(until, now() + 1)),
    isRevoked,
    isSessionRevoked: (sid) => isRevoked({ jti: "", sub: "", sid }),
    read(token) {
      const read = revocationRead(token);
      return {
        keys: read.keys,
        async isRevoked(values, iat = token.iat) {
          const known = { ...token, iat };
          return read.verdict(values, known) ?? isRevoked(known);
        },
      };
    },
    revokeSubject: (sub, notBefore, until) => revoke("subject", sub, until, String(notBefore)),
    async subjectNotBefore(sub) {
      const value = await markOf("subject", sub);
      return value === undefined ? undefined : Number(value);
    },
    ensureLoaded: () => loader.ensureLoaded(),
  };
}
