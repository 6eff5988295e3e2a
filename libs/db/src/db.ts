import { traced } from "./traced.ts";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { lockDataDir } from "./owner-lock.ts";
import { initPgliteDir } from "./pglite-init.ts";

export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

/** What a store needs: parameterised queries, and multi-statement SQL for migrations. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  exec(sql: string): Promise<void>;
}

/** One database, PostgreSQL through a pg pool or embedded PGlite: same SQL, same migrations. */
export interface Db extends Queryable {
  readonly kind: "pg" | "pglite";
  /** Runs fn in one transaction; it commits when fn resolves and rolls back when it throws. */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface DbOptions {
  /** postgres:// URL; absent = embedded PGlite. */
  databaseUrl?: string | undefined;
  /** Where PGlite keeps its files; "memory://" keeps them in memory. */
  dataDir?: string;
  poolSize?: number;
  /** Data directories whose live owner excludes this one (see lockDataDir). */
  exclusiveWith?: string[];
  /**
   * PGlite only: a data directory dumped by `dumpDataDir`, loaded into a new
   * one instead of running initdb (seconds each time; the tests do it once).
   */
  template?: Blob | undefined;
}

/** Opens the database (with a span per statement when traces are on). */
export async function openDb(opts: DbOptions): Promise<Db> {
  return traced(await openUntraced(opts));
}

async function openUntraced(opts: DbOptions): Promise<Db> {
  if (opts.databaseUrl) return openPg(opts.databaseUrl, opts.poolSize ?? 10);
  const dir = opts.dataDir ?? "memory://";
  if (dir === "memory://") return openPglite(dir, opts.template);
  // One owner per data directory: a second process would corrupt PGlite's files (owner-lock.ts).
  const unlock = await lockDataDir(dir, opts.exclusiveWith);
  try {
    const db = await openPglite(join(dir, "pglite"), opts.template);
    return {
      ...db,
      async close() {
        try {
          await db.close();
        } finally {
          await unlock();
        }
      },
    };
  } catch (err) {
    await unlock();
    throw err;
  }
}

// int8 and numeric come back as strings from pg by default; counts fit in a number.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/**
 * Names for parameterised queries, so that each runs as a prepared statement:
 * PostgreSQL parses and plans a text once per connection instead of on every
 * call (the login's user read: ~260 → ~70 µs of the database's CPU). The name
 * is a hash of the text, so one text has one name on every connection. Texts
 * are the stores' constants; past `max` distinct ones (SQL built at run time)
 * the rest run unnamed rather than fill every backend with plans.
 */
export function statementNames(max = 1000): (sql: string) => string | undefined {
  const names = new Map<string, string>();
  return (sql) => {
    let name = names.get(sql);
    if (name === undefined && names.size < max) {
      name = `gh_${createHash("sha256").update(sql).digest("base64url").slice(0, 24)}`;
      names.set(sql, name);
    }
    return name;
  };
}

function openPg(url: string, max: number): Db {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  // An idle client's error (server restart) must not crash the process.
  pool.on("error", () => undefined);
  const nameOf = statementNames();
  const wrap = (c: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      const name = params ? nameOf(sql) : undefined;
      const r = await c.query(name ? { name, text: sql, values: params } : { text: sql, values: params });
      return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
    },
    async exec(sql: string) {
      await c.query(sql);
    },
  });
  return {
    kind: "pg",
    ...wrap(pool),
    async tx(fn) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const out = await fn(wrap(client));
        await client.query("COMMIT");
        return out;
      } catch (err) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    async ping() {
      try {
        await pool.query("SELECT 1");
        return true;
      } catch {
        return false;
      }
    },
    close: () => pool.end(),
  };
}

// PostgreSQL's default shared_buffers (128 MB) lives inside PGlite's WebAssembly
// memory, which is touched at start and never shrinks: ~300 MB of idle RSS. One
// embedded process serves a small data set, so 16 MB of buffer cache is plenty
// (docs/performance.md).
const PGLITE_SETTINGS = ["-c", "shared_buffers=16MB"];

async function openPglite(dir: string, template: Blob | undefined): Promise<Db> {
  if (dir !== "memory://") await mkdir(dir, { recursive: true });
  // A template (tests) fills a new data directory only; an existing one opens as it is.
  const fresh = dir === "memory://" || !existsSync(join(dir, "PG_VERSION"));
  const fromTemplate = template !== undefined && fresh;
  if (dir !== "memory://" && !fromTemplate) await initPgliteDir(dir);
  // Imported when used: a process on PostgreSQL never loads PGlite.
  const { PGlite } = await import("@electric-sql/pglite");
  const startParams = [...PGlite.defaultStartParams, ...PGLITE_SETTINGS];
  const db = await PGlite.create(dir, fromTemplate ? { loadDataDir: template, startParams } : { startParams });
  const wrap = (c: Pick<PGlite, "query" | "exec">): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      const r = await c.query<T>(sql, params);
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
    },
    async exec(sql: string) {
      await c.exec(sql);
    },
  });
  return {
    kind: "pglite",
    ...wrap(db),
    tx: (fn) => db.transaction((t) => fn(wrap(t))),
    async ping() {
      try {
        await db.query("SELECT 1");
        return true;
      } catch {
        return false;
      }
    },
    close: () => db.close(),
  };
}
