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
  if (config.databaseUrl) await reachDatabase(db, config.databaseUrl);
  const kv = openKv({
    redisUrl: config.redisUrl,
    prefix: config.redisPrefix,
    commandTimeoutMs: config.redisCommandTimeoutMs,
  });
  const keys = await loadKeyRing(config.secretKey, config.dataDir);
  return { db, kv, keys };
}

/** A start that cannot use DATABASE_URL (down, no such database, refused login): said in one line, exit 1. */
export class DatabaseUnusableError extends Error {
  override name = "DatabaseUnusableError";
}

async function reachDatabase(db: Db, databaseUrl: string): Promise<void> {
  try {
    await db.query("SELECT 1");
  } catch (err) {
    await db.close().catch(() => undefined);
    const where = new URL(databaseUrl);
    const why = (err as Error).message?.split("\n")[0] || String(err);
    throw new DatabaseUnusableError(`cannot use the database at ${where.host}${where.pathname}: ${why} (DATABASE_URL)`);
  }
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
