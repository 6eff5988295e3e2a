import { createClient } from "@connectrpc/connect";
import { randomBytes } from "node:crypto";
import { migrate, type Db } from "@gatehouse/db";
import { createLogger } from "@gatehouse/logging";
import { AssertionsService, type LegalAssertion } from "@gatehouse/proto";
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
import { dropTestDatabases } from "@gatehouse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends, failure } from "../../test/harness.ts";
import { createRegistry, registryMigrations } from "../index.ts";

const ADMIN = "admin-token";
const READER = "reader-token";
const principal = (token: string, scopes: string[]): Principal => ({
  subject: `operator:${token}`,
  clientId: "op",
  scopes: new Set(scopes),
  internal: false,
  token,
  claims: {},
});
const verifyAccessToken = async (token: string) =>
  token === ADMIN ? principal(token, ["admin"]) : token === READER ? principal(token, ["apps:read"]) : undefined;

type Input = Partial<Omit<LegalAssertion, "$typeName">>;
const input = (extra: Input = {}): Input => ({
  key: "terms",
  displayName: { en: "Terms", es: "Condiciones" },
  type: "terms",
  typology: "consumer",
  property: "",
  mandatory: true,
  version: "1",
  ...extra,
});

describe.each(backends)("AssertionsService on %s", (_name, open) => {
  let db: Db;
  let as: (token?: string) => ReturnType<typeof createClient<typeof AssertionsService>>;
  let internal: ReturnType<typeof createClient<typeof AssertionsService>>;
  beforeAll(async () => {
    db = await open();
    await migrate(db, registryMigrations);
    const logger = createLogger("assertions-test", "silent");
    const tokens = new InternalTokens(new KeyRing(randomBytes(32)));
    const mod = await createRegistry({ db, keys: new KeyRing(randomBytes(32)), logger });
    const server = [
      observeInterceptor(logger, mod.name),
      authnInterceptor({ policy: mod.policy, internal: tokens, verifyAccessToken }),
    ];
    as = (token) =>
      createClient(
        AssertionsService,
        inProcessTransport(mod.routes, server, token ? [clientInterceptor(() => Promise.resolve(token))] : []),
      );
    internal = createClient(
      AssertionsService,
      inProcessTransport(mod.routes, server, callerInterceptors(tokens, "users")),
    );
  });
  afterAll(async () => {
    await db.close();
    if (db.kind === "pg") await dropTestDatabases();
  });

  it("publishes versions; the latest is listed, filtered by typology; every version is kept; each publication is audited", async () => {
    const admin = as(ADMIN);
    const v1 = (await admin.publishAssertion({ assertion: input() })).assertion!;
    expect(v1).toMatchObject({
      key: "terms",
      version: "1",
      property: "default",
      mandatory: true,
      displayName: { en: "Terms", es: "Condiciones" },
    });
    expect(v1.publishTime).toBeDefined();
    await admin.publishAssertion({ assertion: input({ version: "2", mandatory: false }) });
    await admin.publishAssertion({ assertion: input({ key: "news", type: "marketing", mandatory: false }) });

    const latest = (await internal.listAssertions({ typologies: ["consumer"] })).assertions;
    expect(latest.map((a) => `${a.key}@${a.version}:${a.mandatory}`)).toEqual(["news@1:false", "terms@2:false"]);
    expect((await internal.listAssertions({ typologies: ["other"] })).assertions).toEqual([]);
    expect((await internal.listAssertions({})).assertions).toHaveLength(2);
    expect((await admin.getAssertion({ key: "terms" })).versions.map((a) => a.version)).toEqual(["2", "1"]);
    expect((await failure(internal.getAssertion({ key: "nope" }))).reason).toBe("ASSERTION_NOT_FOUND");

    const audit = await db.query<{ actor: string; target: string; details: Record<string, unknown> }>(
      "SELECT actor, target, details FROM registry.audit_log WHERE action = 'legal_assertion.publish' ORDER BY id",
    );
    expect(audit.rows[0]).toEqual({
      actor: "user:operator:admin-token",
      target: "terms",
      details: { version: "1", typology: "consumer", mandatory: true },
    });
    expect(audit.rows).toHaveLength(3);
  });

  it("a version the key already has is ASSERTION_VERSION_TAKEN, also when published in parallel", async () => {
    const admin = as(ADMIN);
    const results = await Promise.allSettled(
      [1, 2, 3].map(() => admin.publishAssertion({ assertion: input({ key: "race", version: "r1" }) })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const lost = await failure(admin.publishAssertion({ assertion: input({ key: "race", version: "r1" }) }));
    expect(lost.reason).toBe("ASSERTION_VERSION_TAKEN");
    expect(lost.violations).toEqual([expect.objectContaining({ field: "version", code: "duplicate" })]);
  });

  it("checks every rule: key format, displayName.en, typology and property catalogs, version", async () => {
    const bad = await failure(
      as(ADMIN).publishAssertion({
        assertion: input({
          key: "-x",
          type: "",
          displayName: { es: "solo", english: "x" },
          typology: "nope",
          property: "nope",
          version: " v",
        }),
      }),
    );
    expect(bad.reason).toBe("VALIDATION_FAILED");
    expect(bad.violations.map((v) => `${v.field}:${v.code}`).sort()).toEqual(
      [
        "displayName.en:required",
        "displayName.english:invalid_format",
        "key:invalid_format",
        "property:unknown_key",
        "type:required",
        "typology:unknown_key",
        "version:invalid_format",
      ].sort(),
    );
    const long = await failure(as(ADMIN).publishAssertion({ assertion: input({ version: "v".repeat(65) }) }));
    expect(long.violations).toEqual([expect.objectContaining({ field: "version", code: "too_long" })]);
  });

  it("publishing needs the admin scope; reading admin or internal", async () => {
    expect((await failure(as(READER).publishAssertion({ assertion: input({ key: "nope" }) }))).reason).toBe(
      "INSUFFICIENT_SCOPE",
    );
    expect((await failure(as().listAssertions({}))).reason).toBe("UNAUTHENTICATED");
    expect((await failure(internal.publishAssertion({ assertion: input({ key: "nope" }) }))).reason).toBe(
      "INSUFFICIENT_SCOPE",
    );
    expect((await failure(as(READER).listAssertions({}))).reason).toBe("INSUFFICIENT_SCOPE");
  });
});
