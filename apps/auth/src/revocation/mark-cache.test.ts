import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { migrate, openDb, type Db } from "@gatehouse/db";
import { openKv, type Kv } from "@gatehouse/kv";
import { dropTestDatabases, freshDatabase, redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { authMigrations } from "../index.ts";
import { markCache } from "./mark-cache.ts";
import { createRevocationList, type RevocationList } from "./revocation-list.ts";

const now = () => Math.floor(Date.now() / 1000);

/** A process's view: its own kv connection (its own subscriber), its revocation list with the process's cache, its kv reads counted. */
function replica(db: Db, prefix: string) {
  const kv = openKv({ redisUrl: redisTestUrl(), prefix });
  let reads = 0;
  const counted: Kv = new Proxy(kv, {
    get(target, p, receiver) {
      if (p === "getMany") return (keys: string[]) => (reads++, target.getMany(keys));
      const v = Reflect.get(target, p, receiver) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  const list = createRevocationList({ db, kv: counted, cache: markCache(counted) });
  return { kv, list, reads: () => reads };
}

/** Checks until one is answered from the cache (the subscription is live), then returns that answer. */
async function cachedAnswer(r: ReturnType<typeof replica>, token: Parameters<RevocationList["isRevoked"]>[0]) {
  return vi.waitFor(
    async () => {
      const before = r.reads();
      const answer = await r.list.isRevoked(token);
      expect(r.reads()).toBe(before);
      return answer;
    },
    { timeout: 5_000, interval: 20 },
  );
}

describe("revocation marks cached per process, dropped by the revocations' notices (PostgreSQL + Redis)", () => {
  let db: Db;
  let a: ReturnType<typeof replica>;
  let b: ReturnType<typeof replica>;
  beforeAll(async () => {
    db = await openDb({ databaseUrl: (await freshDatabase()).url });
    await migrate(db, authMigrations);
    const prefix = uniquePrefix();
    a = replica(db, prefix);
    b = replica(db, prefix);
    await a.list.ensureLoaded();
  });
  afterAll(async () => {
    await a?.kv.close();
    await b?.kv.close();
    await db?.close();
    await dropTestDatabases();
  });

  it("answers a token checked again without a kv read, and refuses it once another replica revokes it", async () => {
    const token = { jti: "jti-1", sub: "user-1", sid: "sid-1", iat: now() };
    expect(await cachedAnswer(b, token)).toBe(false);
    expect(await cachedAnswer(a, token)).toBe(false);

    await a.list.revoke("jti-1", now() + 600);
    // The revoking process drops its own mark at once; the other replica on the notice.
    expect(await a.list.isRevoked(token)).toBe(true);
    await vi.waitFor(async () => expect(await b.list.isRevoked(token)).toBe(true), { timeout: 2_000, interval: 5 });
    expect(await cachedAnswer(b, token)).toBe(true);
  });

  it("honours a session's end and a subject's 'not before' written by another replica", async () => {
    const token = { jti: "jti-2", sub: "user-2", sid: "sid-2", iat: now() - 10 };
    expect(await cachedAnswer(b, token)).toBe(false);
    await a.list.revokeSession("sid-2", now() + 600);
    await vi.waitFor(async () => expect(await b.list.isRevoked(token)).toBe(true), { timeout: 2_000, interval: 5 });

    const other = { jti: "jti-3", sub: "user-3", sid: "sid-3", iat: now() - 10 };
    expect(await cachedAnswer(b, other)).toBe(false);
    await a.list.revokeSubject("user-3", now(), now() + 600);
    await vi.waitFor(async () => expect(await b.list.isRevoked(other)).toBe(true), { timeout: 2_000, interval: 5 });
    // A token issued after the "not before" is still accepted.
    expect(await b.list.isRevoked({ ...other, jti: "jti-4", iat: now() + 1 })).toBe(false);
  });

  it("never keeps an answer read while a revocation raced it", async () => {
    const tokens = Array.from({ length: 40 }, (_, i) => ({ jti: `race-${i}`, sub: "user-race", iat: now() }));
    // Checks on b interleaved with the revocations on a: whatever b read meanwhile, it ends up refusing each.
    await Promise.all(
      tokens.flatMap((t) => [b.list.isRevoked(t), a.list.revoke(t.jti, now() + 600), b.list.isRevoked(t)]),
    );
    await vi.waitFor(
      async () => expect(await Promise.all(tokens.map((t) => b.list.isRevoked(t)))).not.toContain(false),
      { timeout: 2_000, interval: 20 },
    );
  });
});
