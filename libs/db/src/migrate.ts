import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Db } from "./db.ts";

export interface Migrations {
  /** The PostgreSQL schema the service owns; its tables live there. */
  schema: string;
  /** Folder of `NNN_name.sql` files, applied in name order, each once. */
  dir: string;
}

/**
 * Applies the pending migrations of one service in one transaction, under an
 * advisory lock so that N replicas starting together apply each file once.
 */
export async function migrate(db: Db, m: Migrations): Promise<string[]> {
  if (!/^[a-z_][a-z0-9_]*$/.test(m.schema)) throw new Error(`bad schema name ${m.schema}`);
  const files = (await readdir(m.dir)).filter((f) => /^\d+_[\w-]+\.sql$/.test(f)).sort();
  return db.tx(async (q) => {
    await q.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`gatehouse:migrate:${m.schema}`]);
    await q.exec(
      `CREATE SCHEMA IF NOT EXISTS ${m.schema};
       CREATE TABLE IF NOT EXISTS ${m.schema}.schema_migrations (
         name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());`,
    );
    const done = new Set(
      (await q.query<{ name: string }>(`SELECT name FROM ${m.schema}.schema_migrations`)).rows.map((r) => r.name),
    );
    const applied: string[] = [];
    for (const f of files) {
      if (done.has(f)) continue;
      await q.exec(await readFile(join(m.dir, f), "utf8"));
      await q.query(`INSERT INTO ${m.schema}.schema_migrations (name) VALUES ($1)`, [f]);
      applied.push(f);
    }
    return applied;
  });
}
