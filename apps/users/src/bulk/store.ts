import type { Queryable } from "@gatehouse/db";
import type { IdKey } from "../users/identifiers.ts";

export interface ImportJobRow {
  id: string;
  entrypointId: string;
  clientId: string;
  /** Who started the job (its audit entries name them). */
  actor: string;
  status: "running" | "done";
  lines: number;
  imported: number;
  skipped: number;
  failed: number;
  createdAt: Date;
  /** The last batch (or the feeder's sign of life while it spools the upload). */
  updatedAt: Date;
  finishedAt: Date | null;
}

export interface LineResult {
  line: number;
  outcome: "skipped" | "failed";
  code: string;
  field: string;
  userId: string | null;
}

/** A user row of a batch, with its identifiers. */
export interface NewImportedUser {
  id: string;
  pulseId: string;
  passwordHash: string | null;
  datas: string;
  addresses: string;
  assertions: string;
  created: Date;
  ids: { key: IdKey; value: string; confirmed: boolean }[];
}

interface JobSql {
  id: string;
  entrypoint_id: string;
  client_id: string;
  actor: string;
  status: "running" | "done";
  lines: number;
  imported: number;
  skipped: number;
  failed: number;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

const toJob = (r: JobSql): ImportJobRow => ({
  id: r.id,
  entrypointId: r.entrypoint_id,
  clientId: r.client_id,
  actor: r.actor,
  status: r.status,
  lines: r.lines,
  imported: r.imported,
  skipped: r.skipped,
  failed: r.failed,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  finishedAt: r.finished_at,
});

const JOB_COLUMNS =
  "id, entrypoint_id, client_id, actor, status, lines, imported, skipped, failed, created_at, updated_at, finished_at";

/** users.import_jobs and users.import_results (migration 011), and the batch's set-based writes of users. */
export function importStore(q: Queryable) {
  return {
    async createJob(j: { id: string; entrypointId: string; clientId: string; actor: string }): Promise<ImportJobRow> {
      const { rows } = await q.query<JobSql>(
        `INSERT INTO users.import_jobs (id, entrypoint_id, client_id, actor) VALUES ($1, $2, $3, $4) RETURNING ${JOB_COLUMNS}`,
        [j.id, j.entrypointId, j.clientId, j.actor],
      );
      return toJob(rows[0]!);
    },

    async job(id: string, forUpdate = false): Promise<ImportJobRow | undefined> {
      const { rows } = await q.query<JobSql>(
        `SELECT ${JOB_COLUMNS} FROM users.import_jobs WHERE id = $1${forUpdate ? " FOR UPDATE" : ""}`,
        [id],
      );
      return rows[0] && toJob(rows[0]);
    },

    async count(id: string, c: { lastLine: number; imported: number; skipped: number; failed: number }) {
      const { rows } = await q.query<JobSql>(
        `UPDATE users.import_jobs SET lines = GREATEST(lines, $2), imported = imported + $3, skipped = skipped + $4,
                failed = failed + $5, updated_at = now() WHERE id = $1 RETURNING ${JOB_COLUMNS}`,
        [id, c.lastLine, c.imported, c.skipped, c.failed],
      );
      return toJob(rows[0]!);
    },

    async finish(id: string): Promise<ImportJobRow | undefined> {
      const { rows } = await q.query<JobSql>(
        `UPDATE users.import_jobs SET status = 'done', finished_at = COALESCE(finished_at, now()), updated_at = now()
          WHERE id = $1 RETURNING ${JOB_COLUMNS}`,
        [id],
      );
      return rows[0] && toJob(rows[0]);
    },

    async addResults(jobId: string, results: LineResult[]): Promise<void> {
      if (!results.length) return;
      await q.query(
        `INSERT INTO users.import_results (job_id, line, outcome, code, field, user_id)
         SELECT $1, r.line, r.outcome, r.code, r.field, r.user_id
           FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[]) AS r(line, outcome, code, field, user_id)
         ON CONFLICT (job_id, line) DO NOTHING`,
        [
          jobId,
          results.map((r) => r.line),
          results.map((r) => r.outcome),
          results.map((r) => r.code),
          results.map((r) => r.field),
          results.map((r) => r.userId),
        ],
      );
    },

    async results(jobId: string, limit: number): Promise<LineResult[]> {
      const { rows } = await q.query<LineResult & { user_id: string | null }>(
        `SELECT line, outcome, code, field, user_id FROM users.import_results WHERE job_id = $1 ORDER BY line LIMIT $2`,
        [jobId, limit],
      );
      return rows.map((r) => ({ line: r.line, outcome: r.outcome, code: r.code, field: r.field, userId: r.user_id }));
    },

    /** The users holding any of these id values: `key value` → user id. */
    async holders(ids: { key: string; value: string }[]): Promise<Map<string, string>> {
      if (!ids.length) return new Map();
      const { rows } = await q.query<{ key: string; value: string; user_id: string }>(
        `SELECT i.key, i.value, i.user_id FROM users.identifiers i
           JOIN unnest($1::text[], $2::text[]) AS w(key, value) ON i.key = w.key AND i.value = w.value`,
        [ids.map((i) => i.key), ids.map((i) => i.value)],
      );
      return new Map(rows.map((r) => [`${r.key} ${r.value}`, r.user_id]));
    },

    /**
     * Inserts the users and their identifiers in set-based statements; an id
     * value taken meanwhile (a registration racing the batch) is not
     * inserted, and its user is removed again in the same transaction.
     * Answers the ids of the users removed.
     */
    async insertUsers(users: NewImportedUser[], clientId: string, entrypointId: string): Promise<Set<string>> {
      if (!users.length) return new Set();
      await q.query(
        `INSERT INTO users.users (id, pulse_id, password_hash, datas, addresses, assertions, registered_client_id,
                                  registered_entrypoint, created_at, updated_at)
         SELECT u.id, u.pulse_id, u.hash, u.datas::jsonb, u.addresses::jsonb, u.assertions::jsonb, $7, $8, u.created, u.created
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $9::timestamptz[])
             AS u(id, pulse_id, hash, datas, addresses, assertions, created)`,
        [
          users.map((u) => u.id),
          users.map((u) => u.pulseId),
          users.map((u) => u.passwordHash),
          users.map((u) => u.datas),
          users.map((u) => u.addresses),
          users.map((u) => u.assertions),
          clientId,
          entrypointId,
          users.map((u) => u.created.toISOString()),
        ],
      );
      const ids = users.flatMap((u) => u.ids.map((i) => ({ userId: u.id, created: u.created, ...i })));
      const { rows } = await q.query<{ user_id: string; key: string }>(
        `INSERT INTO users.identifiers (user_id, key, value, confirmed, confirmed_at, created_at, updated_at)
         SELECT i.user_id, i.key, i.value, i.confirmed, CASE WHEN i.confirmed THEN i.created END, i.created, i.created
           FROM unnest($1::text[], $2::text[], $3::text[], $4::boolean[], $5::timestamptz[]) AS i(user_id, key, value, confirmed, created)
         ON CONFLICT (key, value) DO NOTHING
         RETURNING user_id, key`,
        [
          ids.map((i) => i.userId),
          ids.map((i) => i.key),
          ids.map((i) => i.value),
          ids.map((i) => i.confirmed),
          ids.map((i) => i.created.toISOString()),
        ],
      );
      const written = new Set(rows.map((r) => `${r.user_id} ${r.key}`));
      const raced = new Set(ids.filter((i) => !written.has(`${i.userId} ${i.key}`)).map((i) => i.userId));
      if (raced.size) await q.query("DELETE FROM users.users WHERE id = ANY($1::text[])", [[...raced]]);
      return raced;
    },
  };
}

export type ImportStore = ReturnType<typeof importStore>;
