import { toJson } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { ApplicationSchema, CatalogKind } from "@gatehouse/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { application, backends, failure, startRegistry, validApplicationJson, type Harness } from "../test/harness.ts";

describe.each(backends)("RegistryService on %s", (_name, open) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startRegistry(open);
  });
  afterAll(async () => {
    await h.close();
  });

  it("creates an application with ids and every default, and reads it back", async () => {
    const res = await h.operator.createApplication({ application: application(validApplicationJson()) });
    const app = res.application!;
    expect(app.id).toMatch(/^[1-9]\d{11}_shop$/);
    expect(app.createTime).toBeDefined();
    expect(app.updateTime).toBeDefined();
    const ep = app.entrypoints[0]!;
    expect(ep.id).toBe(`${app.id}_web`);
    expect(ep.assisted).toBe(false);
    expect(ep.passwordless).toBe(false);
    expect(ep.typology?.register?.id).toBe("consumer");
    expect(ep.typology?.work?.id).toBe("consumer");
    const [email, name] = ep.fields;
    expect(email).toMatchObject({
      key: "email",
      main: true,
      mandatory: true,
      requiresConfirmation: true,
      requiresVerification: false,
    });
    expect(email?.useForValidation).toBeUndefined();
    expect(email?.step).toBeUndefined();
    expect(name).toMatchObject({ key: "name", mandatory: true, useForValidation: false, step: 1 });
    expect(name?.main).toBeUndefined();
    expect(res.password.length).toBeGreaterThanOrEqual(43);

    const read = await h.operator.getApplication({ clientId: app.id });
    expect(toJson(ApplicationSchema, read.application!)).toEqual(toJson(ApplicationSchema, app));
    const viaService = await h.internal.getApplication({ clientId: app.id });
    expect(viaService.application?.id).toBe(app.id);

    const got = await h.internal.getEntrypoint({ entrypointId: ep.id });
    expect(got.clientId).toBe(app.id);
    expect(got.entrypoint?.id).toBe(ep.id);
    expect(got.entrypoint?.fields).toHaveLength(2);
    // What a confirmation redirect may use: the whitelist starts as the redirect URIs.
    expect(got.whitelist).toEqual(["https://shop.example.com/callback"]);
    expect(got.defaultCallback).toBe("");
  });

  it("numbers entry points without a key and keeps explicit values", async () => {
    const json = validApplicationJson() as any;
    delete json.key;
    const [first] = json.entrypoints;
    delete first.key;
    first.assisted = true;
    first.typology.work.id = "consumer";
    first.fields[1] = { ...first.fields[1], mandatory: false, useForValidation: true, step: 2 };
    json.entrypoints.push({ ...first, key: "mobile", passwordless: true });
    const app = (await h.operator.createApplication({ application: application(json) })).application!;
    expect(app.id).toMatch(/^[1-9]\d{11}$/);
    expect(app.entrypoints.map((e) => e.id)).toEqual([`${app.id}_0`, `${app.id}_mobile`]);
    expect(app.entrypoints[0]).toMatchObject({ assisted: true, passwordless: false });
    expect(app.entrypoints[1]).toMatchObject({ assisted: true, passwordless: true });
    expect(app.entrypoints[0]?.fields[1]).toMatchObject({ mandatory: false, useForValidation: true, step: 2 });
  });

  it("defaults the work typology to the register typology", async () => {
    await h.db.query(
      "INSERT INTO registry.catalog_entries (kind, key, display_name) VALUES ('typology', 'professional', 'Professional')",
    );
    const json = validApplicationJson() as any;
    json.entrypoints[0].typology.register.id = "professional";
    const app = (await h.operator.createApplication({ application: application(json) })).application!;
    expect(app.entrypoints[0]?.typology?.register?.id).toBe("professional");
    expect(app.entrypoints[0]?.typology?.work?.id).toBe("professional");
  });

  it("stores the application and its entry points with lookup columns", async () => {
    const app = (await h.operator.createApplication({ application: application(validApplicationJson()) })).application!;
    const { rows } = await h.db.query<Record<string, unknown>>(
      "SELECT kind, redirect_uris, whitelist, default_callback, mfa, secret_version FROM registry.clients WHERE client_id = $1",
      [app.id],
    );
    expect(rows).toEqual([
      {
        kind: "application",
        redirect_uris: ["https://shop.example.com/callback"],
        whitelist: ["https://shop.example.com/callback"],
        default_callback: null,
        mfa: "off",
        secret_version: 1,
      },
    ]);
    const eps = await h.db.query<{ id: string; position: number }>(
      "SELECT id, position FROM registry.entrypoints WHERE client_id = $1",
      [app.id],
    );
    expect(eps.rows).toEqual([{ id: `${app.id}_web`, position: 0 }]);
  });

  it("answers NOT_FOUND for unknown applications, entry points and operator clients", async () => {
    const app = await failure(h.operator.getApplication({ clientId: "000000000000" }));
    expect([app.code, app.reason]).toEqual([Code.NotFound, "APPLICATION_NOT_FOUND"]);
    const ep = await failure(h.internal.getEntrypoint({ entrypointId: "000000000000_web" }));
    expect([ep.code, ep.reason]).toEqual([Code.NotFound, "ENTRYPOINT_NOT_FOUND"]);
    await h.internal.ensureOperatorClient({ clientId: "console-operator", clientSecret: "s".repeat(24) });
    const op = await failure(h.operator.getApplication({ clientId: "console-operator" }));
    expect([op.code, op.reason]).toEqual([Code.NotFound, "APPLICATION_NOT_FOUND"]);
    const empty = await failure(h.operator.getApplication({ clientId: "" }));
    expect(empty.code).toBe(Code.InvalidArgument);
    expect(empty.violations).toEqual([{ field: "clientId", code: "required", description: "required" }]);
  });

  it("lists the default catalogs", async () => {
    const keys = async (kind: CatalogKind) => (await h.operator.listCatalog({ kind })).entries.map((e) => e.key);
    expect(await keys(CatalogKind.ORGANIZATION)).toEqual(["default"]);
    expect(await keys(CatalogKind.BRAND)).toEqual(["default"]);
    expect(await keys(CatalogKind.PROPERTY)).toEqual(["default"]);
    expect(await keys(CatalogKind.TYPOLOGY)).toContain("consumer");
    const fields = (await h.internal.listCatalog({ kind: CatalogKind.DATA_FIELD })).entries;
    expect(fields.map((e) => e.key).sort()).toEqual([
      "birthday",
      "country",
      "gender",
      "locale",
      "name",
      "nickname",
      "postal_code",
      "second_surname",
      "surname",
    ]);
    expect(fields.find((e) => e.key === "birthday")?.valueType).toBe("date");
    expect(fields.find((e) => e.key === "name")?.valueType).toBe("text");
    const err = await failure(h.operator.listCatalog({ kind: CatalogKind.UNSPECIFIED }));
    expect(err.code).toBe(Code.InvalidArgument);
    expect(err.violations.map((v) => v.field)).toEqual(["kind"]);
  });

  describe("authentication and scopes", () => {
    it("refuses calls without a token", async () => {
      const err = await failure(h.anonymous.listCatalog({ kind: CatalogKind.ORGANIZATION }));
      expect([err.code, err.reason]).toEqual([Code.Unauthenticated, "UNAUTHENTICATED"]);
    });
    it("refuses createApplication to an internal token, which carries only the internal scope", async () => {
      const err = await failure(h.internal.createApplication({ application: application(validApplicationJson()) }));
      expect([err.code, err.reason]).toEqual([Code.PermissionDenied, "INSUFFICIENT_SCOPE"]);
    });
    it("refuses internal-only methods to operator tokens, and reveal to internal tokens", async () => {
      const ep = await failure(h.operator.getEntrypoint({ entrypointId: "x_0" }));
      expect(ep.code).toBe(Code.PermissionDenied);
      const auth = await failure(h.operator.authenticateClient({ clientId: "x", clientSecret: "y" }));
      expect(auth.code).toBe(Code.PermissionDenied);
      const reveal = await failure(h.internal.revealClientSecret({ clientId: "x", reason: "test" }));
      expect(reveal.code).toBe(Code.PermissionDenied);
    });
  });
});
