import { activeTracer, inSpan } from "@gatehouse/logging";

// The shapes of db.ts, restated so this file does not import it back (db.ts opens through here).
interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[]; rowCount: number }>;
  exec(sql: string): Promise<void>;
}
interface Db extends Queryable {
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
}

// PostgreSQL spans when traces are on (contract section 16): one client span
// per statement, named by its verb, with its text (parameters never: they
// carry personal data). Wrapped at open only when a tracer is installed.

const verb = (sql: string) => /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? "SQL";

function tracedQueryable(q: Queryable, system: string): Queryable {
  return {
    query: (sql, params) =>
      inSpan(`${verb(sql)} ${system}`, "client", () => q.query(sql, params), {
        attributes: { "db.system.name": system, "db.query.text": sql },
      }),
    exec: (sql) =>
      inSpan(`${verb(sql)} ${system}`, "client", () => q.exec(sql), {
        attributes: { "db.system.name": system },
      }),
  };
}

/** The database with a span per statement, or itself while traces are off. */
export function traced<D extends Db>(db: D): D {
  if (!activeTracer()) return db;
  const system = "postgresql";
  return {
    ...db,
    ...tracedQueryable(db, system),
    tx: (fn) => inSpan(`transaction ${system}`, "internal", () => db.tx((q) => fn(tracedQueryable(q, system)))),
  };
}
