import { afterAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { migrate, openDb, type Db } from "@gatehouse/db";
import { openKv, type Kv } from "@gatehouse/kv";
import { dropTestDatabases, freshDatabase, pgliteDataDir, redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { sleep } from "../../test/harness.ts";
import { authMigrations } from "../index.ts";
import { LOADED_KEY } from "@gatehouse/rpc";
import { createRevocationList } from "./revocation-list.ts";

interface Backend {
  db: Db;
  /** A kv as a new process sees it: after a restart of `npm start`, or of a Redis without persistence. */
  freshKv(): Promise<Kv>;
  close(): Promise<void>;
}

async function postgresAndRedis(): Promise<Backend> {
  const db = await openDb({ databaseUrl: (await freshDatabase()).url });
  await migrate(db, authMigrations);
  const prefix = uniquePrefix();
  const admin = new Redis(redisTestUrl());
  const kvs: Kv[] = [];
  return {
    db,
    async freshKv() {
      // Redis lost everything (only this suite's keys: the test Redis is shared).
      const keys = await admin.keys(`${prefix}*`);
      if (keys.length) await admin.del(...keys);
      const kv = openKv({ redisUrl: redisTestUrl(), prefix });
      kvs.push(kv);
      return kv;
    },
    async close() {
      for (const kv of kvs) await kv.close();
      admin.disconnect();
      await db.close();
      await dropTestDatabases();
    },
  };
}

async function pgliteAndMemory(): Promise<Backend> {
  const db = await openDb({ dataDir: await pgliteDataDir() });
  await migrate(db, authMigrations);
  return { db, freshKv: async () => openKv({}), close: () => db.close() };
}

const now = () => Math.floor(Date.now() / 1000);

describe.each([
  ["PostgreSQL + Redis", postgresAndRedis],
  ["PGlite + memory kv", pgliteAndMemory],
] as const)("revocation list on %s", (_name, open) => {
  let b: Backend;
  afterAll(() => b?.close());

  it("remembers a revoked jti only until the token would have expired, and writes nothing for an expired one", async () => {
    b = await open();
    const revocations = createRevocationList({ db: b.db, kv: await b.freshKv() });
    await revocations.revoke("jti-short", now() + 1);
    await revocations.revoke("jti-long", now() + 3600);
    await revocations.revoke("jti-expired", now() - 5);
    expect(await revocations.isRevoked({ jti: "jti-short", sub: "s" })).toBe(true);
    expect(await revocations.isRevoked({ jti: "jti-long", sub: "s" })).toBe(true);
    expect(await revocations.isRevoked({ jti: "jti-expired", sub: "s" })).toBe(false);
    expect((await b.db.query("SELECT 1 FROM auth.revocations WHERE id = 'jti-expired'")).rowCount).toBe(0);
    await sleep(2_100);
    expect(await revocations.isRevoked({ jti: "jti-short", sub: "s" })).toBe(false);
    expect(await revocations.isRevoked({ jti: "jti-long", sub: "s" })).toBe(true);
  });

  it("keeps every revocation when the kv loses its data (restart): reloaded from the database before answering", async () => {
    const before = createRevocationList({ db: b.db, kv: await b.freshKv() });
    await before.revoke("jti-kept", now() + 3600);
    await before.revokeSession("sid-kept", now() + 3600);
    await before.revoke("jti-lapsing", now() + 1);
    await sleep(1_100);

    const kv = await b.freshKv();
    expect(await kv.get(LOADED_KEY)).toBeNull();
    const after = createRevocationList({ db: b.db, kv });
    // No explicit load: the first check finds the sentinel missing and reloads.
    expect(await after.isRevoked({ jti: "jti-kept", sub: "s" })).toBe(true);
    expect(await after.isRevoked({ jti: "other", sub: "s", sid: "sid-kept" })).toBe(true);
    expect(await after.isSessionRevoked("sid-kept")).toBe(true);
    expect(await after.isRevoked({ jti: "never-revoked", sub: "s", sid: "live-sid" })).toBe(false);
    expect(await after.isRevoked({ jti: "jti-lapsing", sub: "s" })).toBe(false);
    expect(await kv.get(LOADED_KEY)).toBe("loaded");
    // Lapsed rows are gone from the table after a load.
    expect((await b.db.query("SELECT 1 FROM auth.revocations WHERE id = 'jti-lapsing'")).rowCount).toBe(0);
  });

  it("many checks and replicas racing on a lost store: one load, every answer right", async () => {
    const seed = createRevocationList({ db: b.db, kv: await b.freshKv() });
    for (let i = 0; i < 50; i++) await seed.revoke(`race-${i}`, now() + 600);
    const kv = await b.freshKv();
    const loads: string[] = [];
    const logger = { info: (_facts: unknown, msg: string) => loads.push(msg) } as never;
    const replicas = [0, 1, 2].map(() => createRevocationList({ db: b.db, kv, logger }));
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        replicas[i % 3]!.isRevoked({ jti: i < 50 ? `race-${i}` : `fresh-${i}`, sub: "s" }),
      ),
    );
    expect(answers.slice(0, 50).every(Boolean)).toBe(true);
    expect(answers.slice(50).some(Boolean)).toBe(false);
    expect(loads).toEqual(["revocation marks loaded from the database"]);
  });
});
