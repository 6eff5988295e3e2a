import { Code } from "@connectrpc/connect";
import { CatalogKind } from "@gatehouse/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  application,
  backends,
  failure,
  OPERATOR_ACTOR,
  startRegistry,
  validApplicationJson,
  type Harness,
} from "../../test/harness.ts";

describe.each(backends)("RegistryAdminService catalogs, assertion history and audit on %s", (_name, open) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startRegistry(open);
  });
  afterAll(async () => {
    await h.close();
  });

  it("creates, lists in pages, changes and deletes catalog entries, each audited", async () => {
    const org = await h.admin.createCatalogEntry({
      kind: CatalogKind.ORGANIZATION,
      entry: { key: "acme", displayName: "ACME" },
    });
    expect(org.entry).toMatchObject({ key: "acme", displayName: "ACME", valueType: "" });
    const field = await h.admin.createCatalogEntry({
      kind: CatalogKind.DATA_FIELD,
      entry: { key: "loyalty_id", displayName: "Loyalty id" },
    });
    expect(field.entry?.valueType).toBe("text");
    await h.admin.createCatalogEntry({
      kind: CatalogKind.DATA_FIELD,
      entry: { key: "vip", displayName: "VIP", valueType: "boolean" },
    });
    const page1 = await h.admin.listCatalogEntries({ kind: CatalogKind.DATA_FIELD, pageSize: 5 });
    expect(page1.entries.map((e) => e.key)).toEqual(["birthday", "country", "gender", "locale", "loyalty_id"]);
    expect(page1.entries[0]).toMatchObject({ key: "birthday", valueType: "date" });
    const rest = await h.reader.listCatalogEntries({
      kind: CatalogKind.DATA_FIELD,
      pageSize: 5,
      pageToken: page1.nextPageToken,
    });
    expect(rest.entries.map((e) => e.key)).toEqual(["name", "nickname", "postal_code", "second_surname", "surname"]);
    const last = await h.reader.listCatalogEntries({
      kind: CatalogKind.DATA_FIELD,
      pageSize: 5,
      pageToken: rest.nextPageToken,
    });
    expect([last.entries.map((e) => e.key), last.nextPageToken]).toEqual([["vip"], ""]);

    const changed = await h.admin.updateCatalogEntry({
      kind: CatalogKind.DATA_FIELD,
      key: "loyalty_id",
      displayName: "Loyalty number",
      valueType: "number",
    });
    expect(changed.entry).toEqual(
      expect.objectContaining({ key: "loyalty_id", displayName: "Loyalty number", valueType: "number" }),
    );
    await h.admin.deleteCatalogEntry({ kind: CatalogKind.ORGANIZATION, key: "acme" });
    expect((await h.admin.listCatalogEntries({ kind: CatalogKind.ORGANIZATION })).entries.map((e) => e.key)).toEqual([
      "default",
    ]);

    const { rows } = await h.db.query<{ actor: string; action: string; target: string; details: unknown }>(
      "SELECT actor, action, target, details FROM registry.audit_log WHERE target IN ('organization/acme', 'data_field/loyalty_id') ORDER BY id",
    );
    expect(rows).toEqual([
      {
        actor: OPERATOR_ACTOR,
        action: "catalog_entry.create",
        target: "organization/acme",
        details: { kind: "organization", key: "acme", displayName: "ACME" },
      },
      {
        actor: OPERATOR_ACTOR,
        action: "catalog_entry.create",
        target: "data_field/loyalty_id",
        details: { kind: "data_field", key: "loyalty_id", displayName: "Loyalty id", format: "text" },
      },
      {
        actor: OPERATOR_ACTOR,
        action: "catalog_entry.update",
        target: "data_field/loyalty_id",
        details: { kind: "data_field", key: "loyalty_id", displayName: "Loyalty number", format: "number" },
      },
      {
        actor: OPERATOR_ACTOR,
        action: "catalog_entry.delete",
        target: "organization/acme",
        details: { kind: "organization", key: "acme" },
      },
    ]);
  });

  it("refuses bad entries, a taken key, unknown keys and kinds", async () => {
    const bad = await failure(
      h.admin.createCatalogEntry({
        kind: CatalogKind.BRAND,
        entry: { key: "Bad Key", displayName: "", valueType: "date" },
      }),
    );
    expect(bad.violations.map((v) => `${v.field}:${v.code}`)).toEqual([
      "key:invalid_format",
      "displayName:required",
      "format:not_allowed",
    ]);
    const format = await failure(
      h.admin.createCatalogEntry({
        kind: CatalogKind.DATA_FIELD,
        entry: { key: "x", displayName: "X", valueType: "colour" },
      }),
    );
    expect(format.violations).toMatchObject([{ field: "format", code: "invalid_value" }]);
    // A data field named like an identifier, a credential or a hosted page's own input would collide with it; other kinds may use the key.
    for (const key of ["email", "phone_number", "password", "code", "form_token", "page"]) {
      const reserved = await failure(
        h.admin.createCatalogEntry({ kind: CatalogKind.DATA_FIELD, entry: { key, displayName: "X" } }),
      );
      expect(reserved.violations, key).toMatchObject([{ field: "key", code: "invalid_value" }]);
    }
    expect(
      (await h.admin.createCatalogEntry({ kind: CatalogKind.BRAND, entry: { key: "page", displayName: "Page" } })).entry
        ?.key,
    ).toBe("page");
    const taken = await failure(
      h.admin.createCatalogEntry({ kind: CatalogKind.TYPOLOGY, entry: { key: "consumer", displayName: "Again" } }),
    );
    expect([taken.code, taken.reason]).toEqual([Code.AlreadyExists, "CATALOG_KEY_TAKEN"]);
    expect(
      (await failure(h.admin.updateCatalogEntry({ kind: CatalogKind.BRAND, key: "nope", displayName: "x" }))).reason,
    ).toBe("CATALOG_ENTRY_NOT_FOUND");
    expect((await failure(h.admin.deleteCatalogEntry({ kind: CatalogKind.BRAND, key: "nope" }))).reason).toBe(
      "CATALOG_ENTRY_NOT_FOUND",
    );
    expect((await failure(h.admin.listCatalogEntries({ kind: CatalogKind.UNSPECIFIED }))).violations).toMatchObject([
      { field: "kind", code: "required" },
    ]);
    expect(
      (await failure(h.reader.createCatalogEntry({ kind: CatalogKind.BRAND, entry: { key: "b", displayName: "B" } })))
        .reason,
    ).toBe("INSUFFICIENT_SCOPE");
  });

  it("409 in_use for a key an application, an entry point or a legal assertion uses; deletable once unused", async () => {
    for (const [kind, key] of [
      [CatalogKind.ORGANIZATION, "org2"],
      [CatalogKind.BRAND, "brand2"],
      [CatalogKind.PROPERTY, "prop2"],
      [CatalogKind.TYPOLOGY, "typo2"],
      [CatalogKind.DATA_FIELD, "field2"],
      [CatalogKind.PROPERTY, "prop3"],
    ] as const) {
      await h.admin.createCatalogEntry({ kind, entry: { key, displayName: key } });
    }
    const json = validApplicationJson() as any;
    json.organizationSchemaOrg = { identifier: "org2", brand: "brand2" };
    json.schemaOrg = { applicationCategory: "prop2" };
    json.entrypoints[0].typology.work.id = "typo2";
    json.entrypoints[0].fields.push({ objectType: "fieldConfig", type: "field", key: "field2" });
    await h.operator.createApplication({ application: application(json) });
    const assertions = h.assertions;
    await assertions.publishAssertion({
      assertion: {
        key: "t",
        displayName: { en: "T" },
        type: "terms",
        typology: "consumer",
        property: "prop3",
        mandatory: false,
        version: "1",
      },
    });
    for (const [kind, key] of [
      [CatalogKind.ORGANIZATION, "org2"],
      [CatalogKind.BRAND, "brand2"],
      [CatalogKind.PROPERTY, "prop2"],
      [CatalogKind.TYPOLOGY, "typo2"],
      [CatalogKind.DATA_FIELD, "field2"],
      [CatalogKind.PROPERTY, "prop3"],
      [CatalogKind.TYPOLOGY, "consumer"],
    ] as const) {
      const err = await failure(h.admin.deleteCatalogEntry({ kind, key }));
      expect([key, err.code, err.reason]).toEqual([key, Code.FailedPrecondition, "IN_USE"]);
    }
    await h.admin.createCatalogEntry({ kind: CatalogKind.DATA_FIELD, entry: { key: "unused", displayName: "Unused" } });
    await h.admin.deleteCatalogEntry({ kind: CatalogKind.DATA_FIELD, key: "unused" });
  });

  it("lists legal assertions with every version, latest first, in pages and by typology", async () => {
    const publish = (key: string, version: string, typology = "consumer") =>
      h.assertions.publishAssertion({
        assertion: { key, displayName: { en: key }, type: "terms", typology, property: "", mandatory: true, version },
      });
    await publish("a-terms", "1");
    await publish("a-terms", "2");
    await publish("b-privacy", "2024");
    const page = await h.reader.listAssertionHistory({ pageSize: 1 });
    expect(page.assertions.map((a) => [a.key, a.versions.map((v) => v.version)])).toEqual([["a-terms", ["2", "1"]]]);
    const next = await h.reader.listAssertionHistory({ pageSize: 1, pageToken: page.nextPageToken });
    expect(next.assertions[0]?.key).toBe("b-privacy");
    expect((await h.reader.listAssertionHistory({ typology: "nobody" })).assertions).toEqual([]);
  });

  it("lists its audit log newest first with filters and positions; the database refuses to change it", async () => {
    await h.admin.createCatalogEntry({ kind: CatalogKind.BRAND, entry: { key: "audited", displayName: "A" } });
    const newest = await h.reader.listRegistryAuditEntries({ pageSize: 1 });
    expect(newest.entries[0]).toMatchObject({
      actor: OPERATOR_ACTOR,
      action: "catalog_entry.create",
      target: "brand/audited",
      address: "203.0.113.7",
    });
    expect(newest.more).toBe(true);
    const e = newest.entries[0]!;
    const after = await h.reader.listRegistryAuditEntries({ pageSize: 200, after: { time: e.time, id: e.id } });
    expect(after.entries.every((x) => x.id !== e.id)).toBe(true);
    const byTarget = await h.reader.listRegistryAuditEntries({
      filter: { target: "brand/audited", actor: "operator", action: "catalog_entry.create", since: e.time },
    });
    expect(byTarget.entries.map((x) => x.id)).toEqual([e.id]);
    await expect(h.db.query("UPDATE registry.audit_log SET actor = 'x'")).rejects.toThrow(/append-only/);
    await expect(h.db.query("DELETE FROM registry.audit_log")).rejects.toThrow(/append-only/);
    expect((await failure(h.internalAdmin.listRegistryAuditEntries({}))).reason).toBe("INSUFFICIENT_SCOPE");
  });
});
