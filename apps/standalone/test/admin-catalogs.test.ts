import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, audit, OPERATOR_ACTOR } from "./admin-flows.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { publish } from "./terms-flows.ts";
import { createApp } from "./user-flows.ts";

// /admin/v1/catalogs/{kind} and GET /admin/v1/assertions (contract section 6).
describe.each([
  ["PostgreSQL + Redis", false],
  ["the embedded default", true],
])("admin catalogs and assertions on %s", (_name, embedded) => {
  let s: TestStack;
  beforeAll(async () => void (s = await startTestStack({ embedded })));
  afterAll(() => s.close());

  it("lists every kind in key order with the shipped entries; fields carry their format; pages", async () => {
    for (const [kind, key] of [
      ["organizations", "default"],
      ["brands", "default"],
      ["properties", "default"],
      ["typologies", "consumer"],
    ]) {
      const res = await admin(s, "GET", `/admin/v1/catalogs/${kind}`, { scope: "admin:read" });
      expect(res.statusCode).toBe(200);
      expect(res.json().content.items).toContainEqual({ key, displayName: expect.any(String) });
    }
    const fields = (await admin(s, "GET", "/admin/v1/catalogs/fields?limit=200")).json().content;
    expect(fields.items).toContainEqual({ key: "birthday", displayName: "Birthday (YYYY-MM-DD)", format: "date" });
    expect(fields.items).toContainEqual({ key: "name", displayName: "Name", format: "text" });
    expect(fields).not.toHaveProperty("next");
    const first = (await admin(s, "GET", "/admin/v1/catalogs/fields?limit=3")).json().content;
    expect(first.items.map((i: { key: string }) => i.key)).toEqual(["birthday", "country", "gender"]);
    const next = (await admin(s, "GET", `/admin/v1/catalogs/fields?limit=3&cursor=${first.next}`)).json().content;
    expect(next.items[0].key).toBe("locale");
    const unknown = await admin(s, "GET", "/admin/v1/catalogs/colours");
    expect(unknown.statusCode).toBe(400);
  });

  it("adds (201, Location), changes and deletes (204) items, each audited; 409 for a taken key, 404 for an unknown one", async () => {
    const created = await admin(s, "POST", "/admin/v1/catalogs/fields", {
      body: { key: "loyalty", displayName: "Loyalty card", format: "number" },
    });
    expect(created.statusCode).toBe(201);
    expect(created.headers.location).toBe("/admin/v1/catalogs/fields/loyalty");
    expect(created.json().content).toEqual({ key: "loyalty", displayName: "Loyalty card", format: "number" });
    const located = await admin(s, "GET", created.headers.location as string, { scope: "admin:read" });
    expect([located.statusCode, located.json().content]).toEqual([
      200,
      { key: "loyalty", displayName: "Loyalty card", format: "number" },
    ]);
    expect((await admin(s, "GET", "/admin/v1/catalogs/brands/nope", { scope: "admin:read" })).json().errors.code).toBe(
      "catalog_entry_not_found",
    );
    const org = await admin(s, "POST", "/admin/v1/catalogs/organizations", {
      body: { key: "acme", displayName: "ACME" },
    });
    expect(org.json().content).toEqual({ key: "acme", displayName: "ACME" });
    const taken = await admin(s, "POST", "/admin/v1/catalogs/organizations", {
      body: { key: "acme", displayName: "Again" },
    });
    expect([taken.statusCode, taken.json().errors.code]).toEqual([409, "catalog_key_taken"]);
    const bad = await admin(s, "POST", "/admin/v1/catalogs/brands", {
      body: { key: "Bad Key", displayName: "", format: "date" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.items.map((i: { field: string; code: string }) => `${i.field}:${i.code}`)).toEqual([
      "key:invalid_format",
      "displayName:required",
      "format:not_allowed",
    ]);
    expect((await admin(s, "POST", "/admin/v1/catalogs/brands", { body: { key: "b" } })).json().errors.items).toEqual([
      expect.objectContaining({ field: "displayName", code: "required" }),
    ]);
    const mixed = await admin(s, "POST", "/admin/v1/catalogs/fields", {
      body: { key: "Bad Key", displayName: "M", format: "color", extra: 1 },
    });
    expect(mixed.json().errors.items.map((i: { field: string; code: string }) => `${i.field}:${i.code}`)).toEqual([
      "extra:unknown_member",
      "key:invalid_format",
      "format:invalid_value",
    ]);

    const changed = await admin(s, "PATCH", "/admin/v1/catalogs/fields/loyalty", {
      body: { displayName: "Loyalty number", format: "text" },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().content).toEqual({ key: "loyalty", displayName: "Loyalty number", format: "text" });
    expect((await admin(s, "PATCH", "/admin/v1/catalogs/fields/nope", { body: { displayName: "x" } })).statusCode).toBe(
      404,
    );
    const deleted = await admin(s, "DELETE", "/admin/v1/catalogs/organizations/acme", {
      headers: { "content-type": "application/json" },
    });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe("");
    const gone = await admin(s, "DELETE", "/admin/v1/catalogs/organizations/acme");
    expect([gone.statusCode, gone.json().errors.code]).toEqual([404, "catalog_entry_not_found"]);
    const entries = await audit(s, { target: "organization/acme" });
    expect(entries.map((e) => e.action)).toEqual(["catalog_entry.delete", "catalog_entry.create"]);
    expect(entries[1]).toMatchObject({
      actor: OPERATOR_ACTOR,
      details: { kind: "organization", key: "acme", displayName: "ACME" },
    });
  });

  it("a new catalog key is usable at once by POST /v2/apps; deleting a used one is 409 in_use", async () => {
    await admin(s, "POST", "/admin/v1/catalogs/organizations", { body: { key: "shops", displayName: "Shops" } });
    await admin(s, "POST", "/admin/v1/catalogs/fields", {
      body: { key: "vip", displayName: "VIP", format: "boolean" },
    });
    await createApp(s, "uses", (b) => {
      b.organizationSchemaOrg = { identifier: "shops" };
      b.entrypoints[0].fields.push({ objectType: "fieldConfig", type: "field", key: "vip", mandatory: false });
    });
    for (const url of [
      "/admin/v1/catalogs/organizations/shops",
      "/admin/v1/catalogs/fields/vip",
      "/admin/v1/catalogs/typologies/consumer",
    ]) {
      const res = await admin(s, "DELETE", url);
      expect([url, res.statusCode, res.json().errors.code]).toEqual([url, 409, "in_use"]);
    }
  });

  it("GET /admin/v1/assertions lists every assertion with all its versions, latest first", async () => {
    expect(
      (
        await publish(s, {
          key: "hist",
          displayName: { en: "Terms" },
          type: "terms",
          typology: "consumer",
          version: "1",
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await publish(s, {
          key: "hist",
          displayName: { en: "Terms v2" },
          type: "terms",
          typology: "consumer",
          version: "2",
        })
      ).statusCode,
    ).toBe(201);
    const res = await admin(s, "GET", "/admin/v1/assertions", { scope: "admin:read" });
    expect(res.statusCode).toBe(200);
    const item = res.json().content.items.find((i: { key: string }) => i.key === "hist");
    expect(item).toMatchObject({ objectType: "assertion", key: "hist", version: "2", displayName: { en: "Terms v2" } });
    expect(item.versions.map((v: { version: string }) => v.version)).toEqual(["2", "1"]);
    const paged = await admin(s, "GET", "/admin/v1/assertions?limit=1");
    expect(paged.json().content.items).toHaveLength(1);
  });

  it("401 without a valid token and 403 without the scope, on every route", async () => {
    const routes: [string, string, unknown?][] = [
      ["GET", "/admin/v1/catalogs/brands"],
      ["POST", "/admin/v1/catalogs/brands", { key: "x", displayName: "X" }],
      ["GET", "/admin/v1/catalogs/brands/default"],
      ["PATCH", "/admin/v1/catalogs/brands/default", { displayName: "X" }],
      ["DELETE", "/admin/v1/catalogs/brands/default"],
      ["GET", "/admin/v1/assertions"],
      ["POST", "/admin/v1/assertions", {}],
    ];
    for (const [method, url, body] of routes) {
      expect([url, (await admin(s, method as "GET", url, { token: null, body })).statusCode]).toEqual([url, 401]);
      const wrongScope = method === "GET" ? "admin:write" : "admin:read";
      expect([url, (await admin(s, method as "GET", url, { scope: wrongScope, body })).statusCode]).toEqual([url, 403]);
      expect([url, (await admin(s, method as "GET", url, { scope: "apps:write", body })).statusCode]).toEqual([
        url,
        403,
      ]);
    }
  });
});
