import { migrate, openDb, type Db } from "@gatehouse/db";
import { openKv, type Kv } from "@gatehouse/kv";
import { dropTestDatabases, freshDatabase, pgliteDataDir, redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { authMigrations } from "../src/index.ts";

// The stores of the auth suites: PostgreSQL + Redis, and PGlite + the in-process kv.

export interface Stores {
  db: Db;
  kv: Kv;
  /** Another connection pool to the same database (PGlite: the same handle, it serves one process). */
  anotherDb(): Promise<Db>;
  close(): Promise<void>;
}

// freshDatabase's databases are dropped together; drop them once the last open suite store closes.
let openPgStores = 0;

async function postgresAndRedis(): Promise<Stores> {
  openPgStores++;
  const { url } = await freshDatabase();
  const pools: Db[] = [await openDb({ databaseUrl: url })];
  const kv = openKv({ redisUrl: redisTestUrl(), prefix: uniquePrefix() });
  return {
    db: pools[0]!,
    kv,
    async anotherDb() {
      const db = await openDb({ databaseUrl: url });
      pools.push(db);
      return db;
    },
    async close() {
      await kv.close();
      for (const p of pools) await p.close();
      if (--openPgStores === 0) await dropTestDatabases();
    },
  };
}

async function pgliteAndMemory(): Promise<Stores> {
  const db = await openDb({ dataDir: await pgliteDataDir() });
  const kv = openKv({});
  return {
    db,
    kv,
    anotherDb: async () => db,
    async close() {
      await kv.close();
      await db.close();
    },
  };
}

/** Each suite runs on both deployments: separate stores, and the embedded default. */
export const backends: [string, () => Promise<Stores>][] = [
  ["PostgreSQL + Redis", postgresAndRedis],
  ["PGlite + memory kv", pgliteAndMemory],
];

/** Opens stores with the auth schema migrated. */
export async function openStores(open: () => Promise<Stores>): Promise<Stores> {
  const stores = await open();
  await migrate(stores.db, authMigrations);
  return stores;
}
