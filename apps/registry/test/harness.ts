import { randomBytes } from "node:crypto";
import { fromJson, type JsonObject } from "@bufbuild/protobuf";
import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { CLIENT_ADDRESS_HEADER } from "@gatehouse/admin";
import { migrate, openDb, type Db } from "@gatehouse/db";
import { errorFacts, type ErrorFacts } from "@gatehouse/errors";
import { createLogger } from "@gatehouse/logging";
import {
  ApplicationSchema,
  AssertionsService,
  RedirectOriginsService,
  RegistryAdminService,
  RegistryService,
  type Application,
} from "@gatehouse/proto";
import {
  authnInterceptor,
  callerInterceptors,
  clientInterceptor,
  inProcessTransport,
  InternalTokens,
  observeInterceptor,
  type Principal,
} from "@gatehouse/rpc";
import { KeyRing } from "@gatehouse/secrets";
import { dropTestDatabases, freshDatabase, pgliteDataDir } from "@gatehouse/testing";
import { createRegistry, registryMigrations } from "../src/index.ts";

// Test wiring of the registry: real databases (PostgreSQL and PGlite), the
// real authn interceptor, and an operator token that the interceptor's
// access-token verifier accepts (the code path of auth-service tokens).

/** The client address the admin client's calls carry (x-client-address). */
export const ADMIN_ADDRESS = "203.0.113.7";

export const backends: [string, () => Promise<Db>][] = [
  ["PostgreSQL", async () => openDb({ databaseUrl: (await freshDatabase()).url })],
  ["PGlite", async () => openDb({ dataDir: await pgliteDataDir() })],
];

export const OPERATOR_TOKEN = "test-operator-token";
/** A reader: an operator client's token with admin:read only. */
export const READER_TOKEN = "test-reader-token";
/** How the audit names the operator client of OPERATOR_TOKEN. */
export const OPERATOR_ACTOR = "client:operator";

function verifyAccessToken(token: string): Promise<Principal | undefined> {
  const scopes =
    token === OPERATOR_TOKEN
      ? ["apps:write", "apps:read", "admin"]
      : token === READER_TOKEN
        ? ["admin:read"]
        : undefined;
  if (!scopes) return Promise.resolve(undefined);
  // A client_credentials token: the subject is the client itself.
  return Promise.resolve({
    subject: "operator",
    clientId: "operator",
    scopes: new Set(scopes),
    internal: false,
    token,
    claims: {},
  });
}

export interface Registry {
  /** Calls as an operator (apps:write, apps:read, admin). */
  operator: Client<typeof RegistryService>;
  /** RegistryAdminService as an operator (admin), from 203.0.113.7. */
  admin: Client<typeof RegistryAdminService>;
  /** RegistryAdminService as a reader (admin:read only). */
  reader: Client<typeof RegistryAdminService>;
  /** RegistryAdminService as another Gatehouse service (internal scope only). */
  internalAdmin: Client<typeof RegistryAdminService>;
  /** AssertionsService as an operator (admin). */
  assertions: Client<typeof AssertionsService>;
  /** Calls as another Gatehouse service (internal scope only). */
  internal: Client<typeof RegistryService>;
  /** Calls without any token. */
  anonymous: Client<typeof RegistryService>;
  /** RedirectOriginsService as another Gatehouse service. */
  origins: Client<typeof RedirectOriginsService>;
  /** The notices the registry published (topic, id), oldest first. */
  notices: [string, string][];
}

export interface Harness extends Registry {
  db: Db;
  /** The same database served by a registry with face verification purchased. */
  withFaceVerification: Registry;
  /** Closes the database and drops the suite's PostgreSQL databases. */
  close(): Promise<void>;
}

async function serve(db: Db, keys: KeyRing, faceVerification: boolean): Promise<Registry> {
  const logger = createLogger("registry-test", "silent");
  const tokens = new InternalTokens(keys);
  const notices: [string, string][] = [];
  const mod = await createRegistry({
    db,
    keys,
    logger,
    options: { faceVerification },
    notify: async (topic, id) => void notices.push([topic, id]),
  });
  const server = [
    observeInterceptor(logger, mod.name),
    authnInterceptor({ policy: mod.policy, internal: tokens, verifyAccessToken }),
  ];
  const client = (callerSide: Parameters<typeof inProcessTransport>[2]) =>
    createClient(RegistryService, inProcessTransport(mod.routes, server, callerSide));
  const adminClient = (callerSide: Parameters<typeof inProcessTransport>[2]) =>
    createClient(RegistryAdminService, inProcessTransport(mod.routes, server, callerSide));
  const fromAddress: Interceptor = (next) => (req) => {
    req.header.set(CLIENT_ADDRESS_HEADER, ADMIN_ADDRESS);
    return next(req);
  };
  return {
    admin: adminClient([fromAddress, clientInterceptor(() => Promise.resolve(OPERATOR_TOKEN))]),
    reader: adminClient([clientInterceptor(() => Promise.resolve(READER_TOKEN))]),
    internalAdmin: adminClient(callerInterceptors(tokens, "test")),
    assertions: createClient(
      AssertionsService,
      inProcessTransport(mod.routes, server, [clientInterceptor(() => Promise.resolve(OPERATOR_TOKEN))]),
    ),
    operator: client([clientInterceptor(() => Promise.resolve(OPERATOR_TOKEN))]),
    internal: client(callerInterceptors(tokens, "test")),
    anonymous: client([]),
    origins: createClient(
      RedirectOriginsService,
      inProcessTransport(mod.routes, server, callerInterceptors(tokens, "test")),
    ),
    notices,
  };
}

export async function startRegistry(open: () => Promise<Db>): Promise<Harness> {
  const db = await open();
  await migrate(db, registryMigrations);
  const keys = new KeyRing(randomBytes(32));
  const close = async () => {
    await db.close();
    if (db.kind === "pg") await dropTestDatabases();
  };
  return { db, ...(await serve(db, keys, false)), withFaceVerification: await serve(db, keys, true), close };
}

/** A valid application in the spec's JSON form; tests change one thing at a time. */
export function validApplicationJson(): JsonObject {
  const person = (email: string, mobile?: string): JsonObject => {
    const schemaOrg: JsonObject = { email: { value: email } };
    if (mobile) schemaOrg.mobile = { value: mobile };
    return { objectType: "person", schemaOrg };
  };
  return {
    objectType: "application",
    key: "shop",
    displayName: "Shop",
    url: "https://shop.example.com",
    contact: {
      support: person("support@example.com", "+34600000000"),
      projectManager: person("pm@example.com"),
      productOwner: person("po@example.com"),
    },
    redirectUris: ["https://shop.example.com/callback"],
    organizationSchemaOrg: { identifier: "default", brand: "default" },
    schemaOrg: { applicationCategory: "default" },
    entrypoints: [
      {
        objectType: "entrypoint",
        displayName: "Web",
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
          { objectType: "fieldConfig", type: "field", key: "name" },
        ],
        typology: { register: { objectType: "typology" }, work: { objectType: "typology" } },
      },
    ],
  };
}

export function application(json: JsonObject): Application {
  return fromJson(ApplicationSchema, json);
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
