import type { Queryable } from "@gatehouse/db";
import { storeUnavailable, type Kv } from "@gatehouse/kv";
import type { Logger } from "@gatehouse/logging";
import { randomSecret } from "@gatehouse/secrets";
import { LOADED, LOADED_KEY, markKey, REVOCATION_KINDS } from "@gatehouse/rpc";
import { revocationStore } from "./store.ts";

export interface LoaderOptions {
  /** A loader that died mid-way gives up its claim after this long. */
  claimSeconds?: number;
  /** How long a caller waits for another process's load before answering 503. */
  waitMs?: number;
  /** The sentinel's lifetime: the marks are also rebuilt this often (a daily reconciliation). */
  loadedSeconds?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Rebuilds the kv's revocation marks from the database when the sentinel is
 * missing, one loader at a time across every replica: the sentinel key itself
 * is the claim ("loading:<nonce>", set only if absent), and it turns into
 * LOADED only if it still holds that claim when the marks are written. A store
 * that restarted meanwhile has lost the claim too, so it is loaded again.
 */
export function revocationLoader(
  deps: { db: Queryable; kv: Kv; logger?: Logger | undefined },
  opts: LoaderOptions = {},
) {
  const claimSeconds = opts.claimSeconds ?? 10;
  const waitMs = opts.waitMs ?? 3_000;
  const loadedSeconds = opts.loadedSeconds ?? 86_400;
  const store = revocationStore(deps.db);
  let running: Promise<void> | undefined;

  async function load(claim: string): Promise<boolean> {
    const rows = await store.live();
    const now = Date.now() / 1000;
    await deps.kv.setMany(
      rows
        .filter((r) => r.kind in REVOCATION_KINDS)
        .map((r) => ({
          key: markKey(r.kind, r.id),
          value: r.value,
          ttlSeconds: Math.max(1, Math.ceil(r.until - now)),
        })),
    );
    const done = await deps.kv.compareAndSet(LOADED_KEY, claim, LOADED, loadedSeconds);
    if (done) deps.logger?.info({ revocations: rows.length }, "revocation marks loaded from the database");
    return done;
  }

  async function ensure(): Promise<void> {
    const until = Date.now() + waitMs;
    for (;;) {
      const state = await deps.kv.get(LOADED_KEY);
      if (state === LOADED) return;
      if (state === null) {
        const claim = `loading:${randomSecret(9)}`;
        if (await deps.kv.setIfAbsent(LOADED_KEY, claim, claimSeconds)) {
          try {
            if (await load(claim)) return;
            continue; // the store was lost while loading: again
          } catch (err) {
            await deps.kv.compareAndSet(LOADED_KEY, claim, "failed", 1).catch(() => undefined);
            throw err;
          }
        }
      }
      if (Date.now() > until) throw storeUnavailable(new Error("revocation marks are still being loaded"));
      await sleep(50);
    }
  }

  return {
    /** Resolves once the kv holds every live revocation; concurrent callers in this process share one load. */
    ensureLoaded(): Promise<void> {
      running ??= ensure().finally(() => {
        running = undefined;
      });
      return running;
    },
  };
}
