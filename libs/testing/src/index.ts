import { randomBytes } from "node:crypto";
import pg from "pg";

// Test helpers: real PostgreSQL and Redis on this machine (never mocks), each
// suite isolated in its own database and key prefix.

/** The PostgreSQL server the tests use (TEST_DATABASE_URL, default the local `test` database). */
export const adminDatabaseUrl = () => process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
export const redisTestUrl = () => process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379/0";

export const uniquePrefix = () => `ghtest:${randomBytes(6).toString("hex")}:`;

const created: string[] = [];

/**
 * A database made once per content (`key`, e.g. a hash of the migrations) and
 * copied by CREATE DATABASE … TEMPLATE: a suite starts already migrated.
 */
export interface DatabaseTemplate {
  key: string;
  /** Fills the template (e.g. runs the migrations) and closes its connections. */
  fill(url: string): Promise<void>;
}

const urlOf = (name: string) => {
  const url = new URL(adminDatabaseUrl());
  url.pathname = `/${name}`;
  return url.toString();
};

/** Creates a database for one suite, empty or a copy of `template`; dropped by dropTestDatabases. */
export async function freshDatabase(
  opts: { template?: DatabaseTemplate } = {},
): Promise<{ url: string; name: string }> {
  const name = `gh_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminDatabaseUrl() });
  await admin.connect();
  try {
    const from = opts.template ? ` TEMPLATE ${await ensureTemplate(admin, opts.template)}` : "";
    await admin.query(`CREATE DATABASE ${name}${from}`);
  } finally {
    await admin.end();
  }
  created.push(name);
  return { url: urlOf(name), name };
}

/** The template's database, made by the first process that needs it (the others wait on an advisory lock). */
async function ensureTemplate(admin: pg.Client, template: DatabaseTemplate): Promise<string> {
  if (!/^[a-z0-9_]{1,40}$/.test(template.key)) throw new Error(`bad template key ${template.key}`);
  const name = `gh_template_${template.key}`;
  await admin.query("SELECT pg_advisory_lock(hashtext($1))", [name]);
  try {
    const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (exists.rowCount === 0) {
      // Filled under another name and renamed: a half-filled template is never copied.
      const filling = `${name}_${randomBytes(3).toString("hex")}`;
      await admin.query(`CREATE DATABASE ${filling}`);
      try {
        await template.fill(urlOf(filling));
        await admin.query(`ALTER DATABASE ${filling} RENAME TO ${name}`);
      } catch (err) {
        await admin.query(`DROP DATABASE IF EXISTS ${filling} WITH (FORCE)`);
        throw err;
      }
    }
  } finally {
    await admin.query("SELECT pg_advisory_unlock(hashtext($1))", [name]);
  }
  return name;
}

export async function dropTestDatabases(): Promise<void> {
  const admin = new pg.Client({ connectionString: adminDatabaseUrl() });
  await admin.connect();
  try {
    for (const name of created.splice(0)) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export { pgliteTemplate } from "./pglite-template.ts";
export { pgliteDataDir, seedPgliteDataDir, type PgliteClusterContent } from "./pglite-cluster.ts";
export { totpSteps, type TotpSteps } from "./totp-steps.ts";
export { rangeApi } from "./range-api.ts";
export { SoftAuthenticator, type SoftCredential, type Tamper } from "./soft-authenticator.ts";
