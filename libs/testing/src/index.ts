import { randomBytes } from "node:crypto";
import pg from "pg";

// Test helpers: real PostgreSQL and Redis on this machine (never mocks), each
// suite isolated in its own database and key prefix.

/** The PostgreSQL server the tests use (TEST_DATABASE_URL, default the local `test` database). */
export const adminDatabaseUrl = () => process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
export const redisTestUrl = () => process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379/0";

export const uniquePrefix = () => `ghtest:${randomBytes(6).toString("hex")}:`;

const created: string[] = [];

/** Creates an empty database for one suite; dropped at process exit by dropTestDatabases. */
export async function freshDatabase(): Promise<{ url: string; name: string }> {
  const name = `gh_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminDatabaseUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  created.push(name);
  const url = new URL(adminDatabaseUrl());
  url.pathname = `/${name}`;
  return { url: url.toString(), name };
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
