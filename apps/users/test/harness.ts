import { randomBytes } from "node:crypto";
import { create, type JsonObject } from "@bufbuild/protobuf";
import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { CLIENT_ADDRESS_HEADER } from "@gatehouse/admin";
import { migrate, openDb, type Db } from "@gatehouse/db";
import { errorFacts, type ErrorFacts } from "@gatehouse/errors";
import { openJobSecrets, type ConfirmationJob, type JobSecrets } from "@gatehouse/jobs";
import { openKv, type Kv } from "@gatehouse/kv";
import { createLogger } from "@gatehouse/logging";
import { CallerSchema, EntrypointSchema, FieldConfigSchema, UsersAdminService, UsersService, type Caller, type Entrypoint, type FieldConfig } from "@gatehouse/proto";
import type { CatalogAssertion } from "../src/terms/catalog.ts";
import { authnInterceptor, callerInterceptors, clientInterceptor, inProcessTransport, InternalTokens, observeInterceptor, type Principal } from "@gatehouse/rpc";
import { KeyRing } from "@gatehouse/secrets";
import { dropTestDatabases, freshDatabase, redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { createUsers, usersMigrations, type UsersDeps } from "../src/index.ts";

// Test wiring of the users service: real PostgreSQL + Redis, or PGlite + the
// in-process kv; the real authn interceptor with an internal token; entry
// points served from a map (the registry's part), deliveries captured.

export const backends: [string, () => Promise<{ db: Db; kv: Kv }>][] = [
  ["PostgreSQL + Redis", async () => ({ db: await openDb({ databaseUrl: (await freshDatabase()).url }), kv: openKv({ redisUrl: redisTestUrl(), prefix: uniquePrefix() }) })],
  ["PGlite + memory kv", async () => ({ db: await openDb({ dataDir: "memory://" }), kv: openKv({}) })],
];

export const CLIENT_ID = "100000000001_shop";

type Init<T> = Partial<Omit<T, "$typeName" | "$unknown">>;

const field = (f: Init<FieldConfig>): FieldConfig => create(FieldConfigSchema, { objectType: "fieldConfig", ...f });

/** An entry point like the registry returns it (defaults filled in). */
export function entrypoint(key: string, opts: { passwordless?: boolean; fields?: FieldConfig[] } = {}): Entrypoint {
  return create(EntrypointSchema, {
    id: `${CLIENT_ID}_${key}`,
    objectType: "entrypoint",
    displayName: key,
    key,
    assisted: false,
    passwordless: opts.passwordless ?? false,
    typology: { register: { objectType: "typology", id: "consumer" }, work: { objectType: "typology", id: "consumer" } },
    fields: opts.fields ?? [
      field({ type: "id", key: "email", main: true, mandatory: true, requiresConfirmation: true, requiresVerification: false }),
      field({ type: "id", key: "phone_number", main: false, mandatory: false, requiresConfirmation: false, requiresVerification: false }),
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
};

export const caller = (ep = "web", extra: Init<Caller> = {}): Caller =>
  create(CallerSchema, { clientId: CLIENT_ID, entrypointId: `${CLIENT_ID}_${ep}`, clientAddress: `203.0.113.${randomBytes(3).toString("hex")}`, locale: "en", ...extra });

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
export const catalogAssertion = (key: string, extra: Partial<CatalogAssertion> = {}): CatalogAssertion => ({
  key,
  version: "1",
  displayName: { en: `Accept ${key}`, es: `Acepta ${key}` },
  type: "terms",
  typology: "consumer",
  property: "default",
  mandatory: false,
  ...extra,
});

/** The client address of the admin client's calls (x-client-address). */
export const ADMIN_ADDRESS = "198.51.100.4";

export interface AdminClients {
  users: Client<typeof UsersService>;
  admin: Client<typeof UsersAdminService>;
  reader: Client<typeof UsersAdminService>;
  internal: Client<typeof UsersAdminService>;
}

export interface Harness {
  db: Db;
  /** The legal-assertion catalog the service sees (latest versions; edit it in place). */
  catalog: CatalogAssertion[];
  kv: Kv;
  keys: KeyRing;
  users: Client<typeof UsersService>;
  /** Deliveries handed to the queue, in order. */
  jobs: ConfirmationJob[];
  /** When set, enqueue throws (the queue is down). */
  failEnqueue: boolean;
  secretsOf(job: ConfirmationJob): JobSecrets;
  /** The last delivery sent to `to`, with its clear code and link token. */
  lastDelivery(to: string): { job: ConfirmationJob; secrets: JobSecrets };
  /** Another client over the same stores, with some dependencies replaced. */
  serve(overrides: Partial<UsersDeps>): Promise<Client<typeof UsersService>>;
  /**
   * The module with some dependencies replaced, as the gateway calls it:
   * UsersService as a service, UsersAdminService as an operator client with
   * scope admin (from ADMIN_ADDRESS), as a reader (admin:read) and as a service.
   */
  serveAdmin(overrides: Partial<UsersDeps>): Promise<AdminClients>;
  close(): Promise<void>;
}

export async function startUsers(open: () => Promise<{ db: Db; kv: Kv }>): Promise<Harness> {
  const { db, kv } = await open();
  await migrate(db, usersMigrations);
  const keys = new KeyRing(randomBytes(32));
  const tokens = new InternalTokens(keys);
  const logger = createLogger("users-test", "silent");
  const h = {} as Harness;
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
    enqueue: async (job) => {
      if (h.failEnqueue) throw new Error("queue down");
      h.jobs.push(job);
    },
  };
  const serveAdmin = async (overrides: Partial<UsersDeps>): Promise<AdminClients> => {
    const mod = await createUsers({ ...base, ...overrides });
    const verifyAccessToken = async (token: string): Promise<Principal | undefined> => {
      const scopes = token === "admin-token" ? ["admin"] : token === "reader-token" ? ["admin:read"] : undefined;
      return scopes && { subject: "ops", clientId: "ops", scopes: new Set(scopes), internal: false, token, claims: {} };
    };
    const server = [observeInterceptor(logger, mod.name), authnInterceptor({ policy: mod.policy, internal: tokens, verifyAccessToken })];
    const t = (callerSide: Interceptor[]) => inProcessTransport(mod.routes, server, callerSide);
    const fromAddress: Interceptor = (next) => (req) => {
      req.header.set(CLIENT_ADDRESS_HEADER, ADMIN_ADDRESS);
      return next(req);
    };
    return {
      users: createClient(UsersService, t(callerInterceptors(tokens, "test"))),
      admin: createClient(UsersAdminService, t([fromAddress, clientInterceptor(async () => "admin-token")])),
      reader: createClient(UsersAdminService, t([clientInterceptor(async () => "reader-token")])),
      internal: createClient(UsersAdminService, t(callerInterceptors(tokens, "test"))),
    };
  };
  const serve = async (overrides: Partial<UsersDeps>) => {
    const mod = await createUsers({ ...base, ...overrides });
    const server = [observeInterceptor(logger, mod.name), authnInterceptor({ policy: mod.policy, internal: tokens })];
    return createClient(UsersService, inProcessTransport(mod.routes, server, callerInterceptors(tokens, "test")));
  };
  Object.assign(h, {
    db,
    kv,
    keys,
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
