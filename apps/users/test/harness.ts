import { randomBytes } from "node:crypto";
import { create, type JsonObject } from "@bufbuild/protobuf";
import { createClient, type Client } from "@connectrpc/connect";
import { passwordHashParams } from "@gatehouse/config";
import { migrate, openDb, type Db } from "@gatehouse/db";
import { errorFacts, type ErrorFacts } from "@gatehouse/errors";
import { openJobSecrets, type ConfirmationJob, type JobSecrets } from "@gatehouse/jobs";
import { openKv, type Kv } from "@gatehouse/kv";
import { createLogger } from "@gatehouse/logging";
import {
  AuthorizationCodeSchema,
  CallerSchema,
  EntrypointSchema,
  FieldConfigSchema,
  PendingAssertionSchema,
  SessionSchema,
  UsersService,
  type AuthorizationRequest,
  type Caller,
  type Entrypoint,
  type FieldConfig,
  type LoginOutcome,
  type PendingAssertion,
} from "@gatehouse/proto";
import {
  authnInterceptor,
  callerInterceptors,
  inProcessTransport,
  InternalTokens,
  observeInterceptor,
} from "@gatehouse/rpc";
import { KeyRing } from "@gatehouse/secrets";
import { dropTestDatabases, freshDatabase, pgliteDataDir, redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { argon2Passwords, createUsers, usersMigrations, type LoginGrants, type UsersDeps } from "../src/index.ts";
import { dataOver, type Stores } from "../src/stores.ts";
import type { Transactional } from "../src/transactional.ts";
import { adminClientsOf, type AdminClients } from "./admin-clients.ts";

// Test wiring of the users service: real PostgreSQL + Redis, or PGlite + the
// in-process kv; the real authn interceptor with an internal token; entry
// points served from a map (the registry's part), deliveries captured.

export const backends: [string, () => Promise<{ db: Db; kv: Kv }>][] = [
  [
    "PostgreSQL + Redis",
    async () => ({
      db: await openDb({ databaseUrl: (await freshDatabase()).url }),
      kv: openKv({ redisUrl: redisTestUrl(), prefix: uniquePrefix() }),
    }),
  ],
  ["PGlite + memory kv", async () => ({ db: await openDb({ dataDir: await pgliteDataDir() }), kv: openKv({}) })],
];

export const CLIENT_ID = "100000000001_shop";

type Init<T> = Partial<Omit<T, "$typeName" | "$unknown">>;

const field = (f: Init<FieldConfig>): FieldConfig => create(FieldConfigSchema, { objectType: "fieldConfig", ...f });

/** An entry point like the registry returns it (defaults filled in). */
export function entrypoint(
  key: string,
  opts: { passwordless?: boolean; assisted?: boolean; fields?: FieldConfig[] } = {},
): Entrypoint {
  return create(EntrypointSchema, {
    id: `${CLIENT_ID}_${key}`,
    objectType: "entrypoint",
    displayName: key,
    key,
    assisted: opts.assisted ?? false,
    passwordless: opts.passwordless ?? false,
    typology: {
      register: { objectType: "typology", id: "consumer" },
      work: { objectType: "typology", id: "consumer" },
    },
    fields: opts.fields ?? [
      field({
        type: "id",
        key: "email",
        main: true,
        mandatory: true,
        requiresConfirmation: true,
        requiresVerification: false,
      }),
      field({
        type: "id",
        key: "phone_number",
        main: false,
        mandatory: false,
        requiresConfirmation: false,
        requiresVerification: false,
      }),
      field({ type: "field", key: "name", mandatory: true, useForValidation: false, step: 1 }),
      field({ type: "field", key: "birthday", mandatory: false, useForValidation: false, step: 1 }),
    ],
  });
}

export const ENTRYPOINTS: Record<string, Entrypoint> = {
  web: entrypoint("web"),
  // Email needs no confirmation: users can log in at once.
  open: entrypoint("open", {
    fields: [
      field({ type: "id", key: "email", main: true, mandatory: true, requiresConfirmation: false }),
      field({ type: "field", key: "name", mandatory: false }),
      field({ type: "field", key: "surname", mandatory: true }),
    ],
  }),
  nopass: entrypoint("nopass", { passwordless: true }),
  // Asks for more data than `open`: users from `open` miss some at login (fca).
  profile: entrypoint("profile", {
    fields: [
      field({ type: "id", key: "email", main: true, mandatory: true, requiresConfirmation: false }),
      field({ type: "field", key: "name", mandatory: true }),
      field({ type: "field", key: "surname", mandatory: true }),
      field({ type: "field", key: "birthday", mandatory: true }),
      field({ type: "field", key: "gender", mandatory: false }),
    ],
  }),
  // Registered by the application (no password); the user activates by link.
  assisted: entrypoint("assisted", { assisted: true }),
  // Code sign-in must repeat the name and birthday given at registration.
  validated: entrypoint("validated", {
    fields: [
      field({ type: "id", key: "email", main: true, mandatory: true, requiresConfirmation: false }),
      field({ type: "field", key: "name", mandatory: true, useForValidation: true }),
      field({ type: "field", key: "birthday", mandatory: true, useForValidation: true }),
    ],
  }),
  // A two-step form: the birthday is asked on the second page.
  twostep: entrypoint("twostep", {
    fields: [
      field({ type: "id", key: "email", main: true, mandatory: true, requiresConfirmation: true }),
      field({ type: "field", key: "name", mandatory: true, step: 1 }),
      field({ type: "field", key: "birthday", mandatory: true, step: 2 }),
    ],
  }),
  // The phone is the main id (codes by SMS).
  mobile: entrypoint("mobile", {
    passwordless: true,
    fields: [
      field({ type: "id", key: "phone_number", main: true, mandatory: true, requiresConfirmation: true }),
      field({ type: "field", key: "name", mandatory: false }),
    ],
  }),
};

export const caller = (ep = "web", extra: Init<Caller> = {}): Caller =>
  create(CallerSchema, {
    clientId: CLIENT_ID,
    entrypointId: `${CLIENT_ID}_${ep}`,
    clientAddress: `203.0.113.${randomBytes(3).toString("hex")}`,
    locale: "en",
    ...extra,
  });

export const uniqueEmail = () => `user-${randomBytes(5).toString("hex")}@example.com`;

/** A valid registration object for the `web` entry point. */
export function userObject(email = uniqueEmail(), extra: JsonObject = {}): JsonObject {
  return {
    objectType: "user",
    password: "correct horse battery",
    ids: { email: { objectType: "user_id", value: email } },
    datas: { name: { objectType: "data", value: "Ana" } },
    ...extra,
  };
}

/** A legal assertion of the test catalog (typology consumer, version "1"). */
export const catalogAssertion = (key: string, extra: Init<PendingAssertion> = {}): PendingAssertion =>
  create(PendingAssertionSchema, {
    key,
    version: "1",
    displayName: { en: `Accept ${key}`, es: `Acepta ${key}` },
    type: "terms",
    typology: "consumer",
    property: "default",
    mandatory: false,
    ...extra,
  });

/** The auth service's part of a login, in memory: what it was asked for, and tokens that say so. */
export interface FakeGrants extends LoginGrants {
  sessions: { userId: string; clientId: string }[];
  codes: { request: AuthorizationRequest; userId: string; authTime: Date }[];
}

export function fakeGrants(): FakeGrants {
  const g: FakeGrants = {
    sessions: [],
    codes: [],
    async openSession(userId, clientId) {
      g.sessions.push({ userId, clientId });
      const n = g.sessions.length;
      return create(SessionSchema, {
        accessToken: `access-${n}-for-${userId}`,
        refreshToken: `refresh-${n}`,
        expiresIn: 3600n,
        expiresAtMs: BigInt(Date.now() + 3_600_000),
        scope: "profile offline_access",
        connectState: "connected",
      });
    },
    async issueCode(request, userId, authTime) {
      g.codes.push({ request, userId, authTime });
      return create(AuthorizationCodeSchema, { code: `code-${g.codes.length}-for-${userId}`, expiresIn: 60n });
    },
  };
  return g;
}

type OutcomeCase = Exclude<LoginOutcome["outcome"], { case: undefined }>;
type OutcomeValues = { [C in OutcomeCase as C["case"]]: C["value"] };

/** The value of the login outcome's `kind` case (of an outcome or a response carrying one); anything else fails the test. */
export function outcomeOf<K extends keyof OutcomeValues>(
  res: LoginOutcome | { outcome?: LoginOutcome },
  kind: K,
): OutcomeValues[K] {
  const outcome =
    "$typeName" in res && res.$typeName === "gatehouse.users.v1.LoginOutcome"
      ? res
      : (res as { outcome?: LoginOutcome }).outcome;
  const o = outcome?.outcome;
  if (o?.case !== kind) throw new Error(`expected the login to end in ${kind}, got ${o?.case ?? "nothing"}`);
  return o.value as OutcomeValues[K];
}

/** The user and session of a completed login (the `session` case). */
export const loggedIn = (res: { outcome?: LoginOutcome }) => outcomeOf(res, "session");

export { ADMIN_ADDRESS, type AdminClients } from "./admin-clients.ts";

export interface Harness {
  db: Db;
  /** The service's stores over `db` (deliveries queued like the service's). */
  data: Transactional<Stores>;
  /** The legal-assertion catalog the service sees (latest versions; edit it in place). */
  catalog: PendingAssertion[];
  kv: Kv;
  keys: KeyRing;
  /** The fake auth service behind every client of the harness. */
  grants: FakeGrants;
  users: Client<typeof UsersService>;
  /** Deliveries handed to the queue, in order. */
  jobs: ConfirmationJob[];
  /** When set, enqueue throws (the queue is down). */
  failEnqueue: boolean;
  secretsOf(job: ConfirmationJob): JobSecrets;
  /** The last delivery sent to `to`, with its clear code and link token. */
  lastDelivery(to: string): { job: ConfirmationJob; secrets: JobSecrets };
  /** The last delivery of `purpose` to `to`, waiting for it (deliveries queued after an answer). */
  nextDelivery(to: string, purpose: string, after?: number): Promise<{ job: ConfirmationJob; secrets: JobSecrets }>;
  /** Another client over the same stores, with some dependencies replaced. */
  serve(overrides: Partial<UsersDeps>): Promise<Client<typeof UsersService>>;
  /** The module with some dependencies replaced, as the gateway calls it (admin-clients.ts). */
  serveAdmin(overrides: Partial<UsersDeps>): Promise<AdminClients>;
  close(): Promise<void>;
}

/**
 * `productionHash`: hash with the service's own argon2id parameters; else the
 * suite's cheap ones where vitest.config.ts sets TEST_PASSWORD_HASH (the hash is not what most suites test).
 */
export async function startUsers(
  open: () => Promise<{ db: Db; kv: Kv }>,
  opts: { productionHash?: boolean } = {},
): Promise<Harness> {
  const { db, kv } = await open();
  await migrate(db, usersMigrations);
  const keys = new KeyRing(randomBytes(32));
  const tokens = new InternalTokens(keys);
  const logger = createLogger("users-test", "silent");
  const h = {} as Harness;
  const grants = fakeGrants();
  const cheap = passwordHashParams(process.env);
  const base: UsersDeps = {
    db,
    kv,
    keys,
    logger,
    entrypoints: async (id) => {
      const ep = Object.values(ENTRYPOINTS).find((e) => e.id === id);
      return ep ? { entrypoint: ep, clientId: CLIENT_ID } : undefined;
    },
    assertions: async (typologies) => h.catalog.filter((a) => typologies.includes(a.typology)),
    grants,
    ...(cheap && !opts.productionHash ? { passwords: argon2Passwords(cheap) } : {}),
    enqueue: async (job, tx) => {
      if (h.failEnqueue) throw new Error("queue down");
      // Like the real queue's outbox row, the job counts once its transaction commits: nextDelivery waits for this lock.
      if (db.kind === "pg") await tx.query("SELECT pg_advisory_xact_lock_shared(hashtext($1))", [job.deliveryId]);
      h.jobs.push(job);
    },
  };
  const serveAdmin = async (overrides: Partial<UsersDeps>) =>
    adminClientsOf(await createUsers({ ...base, ...overrides }), tokens, logger);
  const serve = async (overrides: Partial<UsersDeps>) => {
    const mod = await createUsers({ ...base, ...overrides });
    const server = [observeInterceptor(logger, mod.name), authnInterceptor({ policy: mod.policy, internal: tokens })];
    return createClient(UsersService, inProcessTransport(mod.routes, server, callerInterceptors(tokens, "test")));
  };
  Object.assign(h, {
    db,
    data: dataOver(db, base.enqueue),
    kv,
    keys,
    grants,
    jobs: [],
    // Optional ones only: a mandatory assertion would stop every login of the other suites at 451.
    catalog: [catalogAssertion("terms"), catalogAssertion("newsletter", { type: "marketing" })],
    failEnqueue: false,
    users: await serve({}),
    serve,
    serveAdmin,
    secretsOf: (job: ConfirmationJob) => openJobSecrets(keys, job),
    lastDelivery(to: string) {
      const job = h.jobs.filter((j) => j.to === to).at(-1);
      if (!job) throw new Error(`no delivery to ${to}`);
      return { job, secrets: openJobSecrets(keys, job) };
    },
    async nextDelivery(to: string, purpose: string, after = 0) {
      for (let i = 0; i < 200; i++) {
        const job = h.jobs
          .slice(after)
          .filter((j) => j.to === to && j.purpose === purpose)
          .at(-1);
        if (job) {
          // Returns once the transaction that queued it has ended (PGlite runs one transaction at a time anyway).
          if (db.kind === "pg")
            await db.tx((q) => q.query("SELECT pg_advisory_xact_lock(hashtext($1))", [job.deliveryId]));
          return { job, secrets: openJobSecrets(keys, job) };
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`no ${purpose} delivery to ${to}`);
    },
    async close() {
      await kv.close();
      await db.close();
      if (db.kind === "pg") await dropTestDatabases();
    },
  });
  return h;
}

/** The error a rejected call ended with, as reason, code and violations. */
export async function failure(call: Promise<unknown>): Promise<ErrorFacts> {
  try {
    await call;
  } catch (err) {
    return errorFacts(err);
  }
  throw new Error("expected the call to fail");
}
