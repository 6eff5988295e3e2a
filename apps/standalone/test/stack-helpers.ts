import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash, randomBytes } from "node:crypto";
import { loadConfig, type Config } from "@gatehouse/config";
import { createLogger } from "@gatehouse/logging";
import { openDb } from "@gatehouse/db";
import {
  freshDatabase,
  redisTestUrl,
  seedPgliteDataDir,
  uniquePrefix,
  type DatabaseTemplate,
  type PgliteClusterContent,
} from "@gatehouse/testing";
import { buildStack, type Stack } from "../src/stack.ts";
import { allMigrations, migrateAll } from "../src/stores.ts";
import { seedEmbeddedDataDir } from "./embedded-data-dir.ts";
import { useSigningKeyPool } from "./signing-key-pool.ts";

export { seedEmbeddedDataDir };

export const OPERATOR = { id: "test-operator", secret: "operator-secret-0123456789" };

export interface TestStack extends Stack {
  config: Config;
  /** An operator access token (client_credentials) with the given scope. */
  operatorToken(scope?: string): Promise<string>;
  basic(id: string, secret: string): string;
}

let digest: Promise<string> | undefined;

/** A hash of every service's migration files: the migrated templates below are made again when one changes. */
function migrationsDigest(): Promise<string> {
  return (digest ??= (async () => {
    const hash = createHash("sha256");
    for (const m of allMigrations) {
      for (const f of (await readdir(m.dir)).sort())
        hash
          .update(`${m.schema}/${f}\0`)
          .update(await readFile(join(m.dir, f)))
          .update("\0");
    }
    return hash.digest("hex").slice(0, 24);
  })());
}

/** Opens a database, applies every service's migrations and closes it. */
async function migrateOnce(opts: { databaseUrl: string } | { dataDir: string }): Promise<void> {
  const db = await openDb(opts);
  try {
    await migrateAll(db);
  } finally {
    await db.close();
  }
}

/** Every service's migrations applied once per content of the migration files, then copied per suite. */
const migratedTemplate = async (): Promise<DatabaseTemplate> => ({
  key: await migrationsDigest(),
  fill: (databaseUrl) => migrateOnce({ databaseUrl }),
});

/** The same for the embedded stacks: a migrated PGlite cluster, copied into each suite's DATA_DIR. */
const migratedCluster = async (): Promise<PgliteClusterContent> => ({
  key: await migrationsDigest(),
  fill: (dataDir) => migrateOnce({ dataDir }),
});

/** The whole system in one process, on PostgreSQL + Redis (default) or the embedded drivers. */
export async function startTestStack(
  opts: { embedded?: boolean; env?: Record<string, string> } = {},
): Promise<TestStack> {
  const dataDir = await mkdtemp(join(tmpdir(), "gh-stack-"));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    SECRET_KEY: randomBytes(32).toString("base64url"),
    PUBLIC_URL: "http://gatehouse.test",
    BOOTSTRAP_OPERATOR_CLIENT_ID: OPERATOR.id,
    BOOTSTRAP_OPERATOR_CLIENT_SECRET: OPERATOR.secret,
    LOG_LEVEL: "silent",
    // Production fails a request closed after 500 ms without Redis; the suite's
    // stacks share two cores with three other test files, spawned servers and
    // Chromium, where a starved event loop alone can pass 500 ms. The outage
    // test (redis-outage.test.ts) sets the production budget back.
    REDIS_COMMAND_TIMEOUT_MS: "5000",
    // The suite's cheap argon2 parameters (vitest.config.ts), where it sets them.
    ...(process.env.TEST_PASSWORD_HASH
      ? { NODE_ENV: process.env.NODE_ENV ?? "", TEST_PASSWORD_HASH: process.env.TEST_PASSWORD_HASH }
      : {}),
    ...opts.env,
  };
  // Migrated already; the stack's own migrateAll finds nothing to apply (the migrations ran on PGlite when the cluster was made).
  if (opts.embedded) await seedPgliteDataDir(env.DATA_DIR!, await migratedCluster());
  if (!opts.embedded) {
    // Two stacks may share one database and Redis (replicas): the caller passes them.
    env.DATABASE_URL = opts.env?.DATABASE_URL ?? (await freshDatabase({ template: await migratedTemplate() })).url;
    env.REDIS_URL = opts.env?.REDIS_URL ?? redisTestUrl();
    env.REDIS_PREFIX = opts.env?.REDIS_PREFIX ?? uniquePrefix();
  }
  const config = loadConfig(env);
  await useSigningKeyPool();
  const stack = await buildStack(config, createLogger("test", "silent"));
  const basic = (id: string, secret: string) =>
    `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;
  return {
    ...stack,
    config,
    basic,
    async operatorToken(scope = "apps:write apps:read admin") {
      const res = await stack.app.inject({
        method: "POST",
        url: "/oauth2/token",
        // The bootstrap operator of this stack (a suite may give it another secret).
        headers: {
          authorization: basic(config.bootstrapOperator!.clientId, config.bootstrapOperator!.clientSecret),
          "content-type": "application/x-www-form-urlencoded",
        },
        payload: new URLSearchParams({ grant_type: "client_credentials", scope }).toString(),
      });
      if (res.statusCode !== 200) throw new Error(`operator token: ${res.statusCode} ${res.body}`);
      return res.json<{ access_token: string }>().access_token;
    },
  };
}

/** A valid application body of the spec (two id fields, two data fields). */
export function validApplication(): Record<string, any> {
  return {
    objectType: "application",
    key: "shop",
    displayName: "Shop",
    url: "https://shop.example.com",
    contact: {
      support: {
        objectType: "person",
        schemaOrg: { email: { value: "support@example.com" }, mobile: { value: "+34600111222" } },
      },
      projectManager: { objectType: "person", schemaOrg: { email: { value: "pm@example.com" } } },
      productOwner: { objectType: "person", schemaOrg: { email: { value: "po@example.com" } } },
    },
    redirectUris: ["https://shop.example.com/callback"],
    organizationSchemaOrg: { identifier: "default" },
    entrypoints: [
      {
        objectType: "entrypoint",
        displayName: "Web sign-up",
        key: "web",
        fields: [
          {
            objectType: "fieldConfig",
            type: "id",
            key: "email",
            main: true,
            mandatory: true,
            requiresConfirmation: true,
          },
          {
            objectType: "fieldConfig",
            type: "id",
            key: "phone_number",
            main: false,
            mandatory: false,
            requiresConfirmation: false,
          },
          { objectType: "fieldConfig", type: "field", key: "name" },
          { objectType: "fieldConfig", type: "field", key: "birthday", mandatory: false, step: 2 },
        ],
        typology: { register: { objectType: "typology" }, work: { objectType: "typology" } },
      },
    ],
  };
}
