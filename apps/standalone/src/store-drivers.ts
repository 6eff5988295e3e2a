import { join } from "node:path";
import type { Config } from "@gatehouse/config";
import { migrate, openDb, type Db, type Migrations } from "@gatehouse/db";
import { openKv, type Kv } from "@gatehouse/kv";
import { loadKeyRing, type KeyRing } from "@gatehouse/secrets";

// Apart from stores.ts (which lists every service's migrations) so that a
// service process imports only its own service's package (docs/performance.md).

/** The service processes of start:services that keep an embedded database under DATA_DIR/<name>. */
const EMBEDDED_OWNERS = ["registry", "auth", "users"];

export interface Stores {
  db: Db;
  kv: Kv;
  keys: KeyRing;
}

/**
 * The drivers of one process: PostgreSQL or PGlite, Redis or in-process state.
 * `owner` names the service when each runs alone: without DATABASE_URL each
 * service process then keeps its own embedded database (it owns its schema,
 * and PGlite serves one process).
 */
export async function openStores(config: Config, owner?: string): Promise<Stores> {
  const dataDir = owner && !config.databaseUrl ? join(config.dataDir, owner) : config.dataDir;
  // npm start (and the CLI) own DATA_DIR, start:services' processes DATA_DIR/<service>: never both at once.
  const exclusiveWith = owner ? [config.dataDir] : EMBEDDED_OWNERS.map((name) => join(config.dataDir, name));
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir, exclusiveWith });
  const kv = openKv({ redisUrl: config.redisUrl, prefix: config.redisPrefix, commandTimeoutMs: config.redisCommandTimeoutMs });
  const keys = await loadKeyRing(config.secretKey, config.dataDir);
  return { db, kv, keys };
}

/** Applies the pending migrations of the schemas given; returns what it applied per schema. */
export async function migrateSchemas(db: Db, which: Migrations[]): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const m of which) out[m.schema] = await migrate(db, m);
  return out;
}

export async function closeStores(s: Stores): Promise<void> {
  await s.kv.close();
  await s.db.close();
}
