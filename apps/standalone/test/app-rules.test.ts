import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, validApplication, type TestStack } from "./stack-helpers.ts";

// Every rule of the spec's Application, Entrypoint and fieldConfig tables,
// through the public API: status 400, the dotted path and the item code.
let s: TestStack;
let token: string;
beforeAll(async () => {
  s = await startTestStack();
  token = await s.operatorToken();
});
afterAll(() => s.close());

type App = ReturnType<typeof validApplication>;
const post = (body: unknown, query = "", lang?: string) =>
  s.app.inject({
    method: "POST",
    url: `/v2/apps${query}`,
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      ...(lang ? { "accept-language": lang } : {}),
    },
    payload: JSON.stringify(body),
  });
const field = (a: App, i: number) => a.entrypoints[0].fields[i];

const cases: [string, (a: App) => void, string, string][] = [
  ["objectType must be application", (a) => (a.objectType = "app"), "objectType", "invalid_value"],
  ["objectType is required", (a) => delete a.objectType, "objectType", "required"],
  ["displayName is required", (a) => delete a.displayName, "displayName", "required"],
  ["displayName is a string", (a) => (a.displayName = 5), "displayName", "invalid_type"],
  ["url is required", (a) => delete a.url, "url", "required"],
  ["url is an absolute http(s) URL", (a) => (a.url = "shop"), "url", "invalid_format"],
  ["url at most 2048 characters", (a) => (a.url = `https://shop.example.com/${"x".repeat(2048)}`), "url", "too_long"],
  ["key pattern", (a) => (a.key = "Bad Key"), "key", "invalid_format"],
  ["an empty key does not match the pattern", (a) => (a.key = ""), "key", "invalid_format"],
  ["unknown members are refused", (a) => (a.extra = 1), "extra", "unknown_member"],
  [
    "support must be a person",
    (a) => (a.contact.support.objectType = "team"),
    "contact.support.objectType",
    "invalid_value",
  ],
  [
    "support email required",
    (a) => delete a.contact.support.schemaOrg.email,
    "contact.support.schemaOrg.email",
    "required",
  ],
  [
    "support email format",
    (a) => (a.contact.support.schemaOrg.email.value = "nope"),
    "contact.support.schemaOrg.email.value",
    "invalid_format",
  ],
  [
    "support mobile required",
    (a) => delete a.contact.support.schemaOrg.mobile,
    "contact.support.schemaOrg.mobile",
    "required",
  ],
  [
    "support mobile E.164",
    (a) => (a.contact.support.schemaOrg.mobile.value = "600111222"),
    "contact.support.schemaOrg.mobile.value",
    "invalid_format",
  ],
  [
    "projectManager must be a person",
    (a) => (a.contact.projectManager.objectType = "x"),
    "contact.projectManager.objectType",
    "invalid_value",
  ],
  [
    "projectManager email format",
    (a) => (a.contact.projectManager.schemaOrg.email.value = "x@"),
    "contact.projectManager.schemaOrg.email.value",
    "invalid_format",
  ],
  ["productOwner required", (a) => delete a.contact.productOwner, "contact.productOwner", "required"],
  [
    "productOwner email format",
    (a) => (a.contact.productOwner.schemaOrg.email.value = "po"),
    "contact.productOwner.schemaOrg.email.value",
    "invalid_format",
  ],
  ["redirectUris at least one", (a) => (a.redirectUris = []), "redirectUris", "too_few"],
  [
    "redirectUris no javascript:",
    (a) => (a.redirectUris = ["javascript:alert(1)"]),
    "redirectUris.0",
    "invalid_format",
  ],
  [
    "redirectUris no fragment",
    (a) => (a.redirectUris = ["https://a.example/cb#x"]),
    "redirectUris.0",
    "invalid_format",
  ],
  [
    "redirectUris no wildcard host",
    (a) => (a.redirectUris = ["https://*.a.example/cb"]),
    "redirectUris.0",
    "invalid_format",
  ],
  [
    "redirectUris no duplicates",
    (a) => (a.redirectUris = ["https://a.example/cb", "https://a.example/cb"]),
    "redirectUris.1",
    "duplicate",
  ],
  [
    "organisation required",
    (a) => delete a.organizationSchemaOrg.identifier,
    "organizationSchemaOrg.identifier",
    "required",
  ],
  [
    "organisation from the catalog",
    (a) => (a.organizationSchemaOrg.identifier = "acme"),
    "organizationSchemaOrg.identifier",
    "unknown_key",
  ],
  [
    "brand from the catalog",
    (a) => (a.organizationSchemaOrg.brand = "acme"),
    "organizationSchemaOrg.brand",
    "unknown_key",
  ],
  [
    "property from the catalog",
    (a) => (a.schemaOrg = { applicationCategory: "acme" }),
    "schemaOrg.applicationCategory",
    "unknown_key",
  ],
  ["entrypoints at least one", (a) => (a.entrypoints = []), "entrypoints", "too_few"],
  ["entrypoint objectType", (a) => (a.entrypoints[0].objectType = "form"), "entrypoints.0.objectType", "invalid_value"],
  [
    "entrypoint displayName required",
    (a) => delete a.entrypoints[0].displayName,
    "entrypoints.0.displayName",
    "required",
  ],
  ["entrypoint key pattern", (a) => (a.entrypoints[0].key = "-x"), "entrypoints.0.key", "invalid_format"],
  [
    "an empty entrypoint key does not match the pattern",
    (a) => (a.entrypoints[0].key = ""),
    "entrypoints.0.key",
    "invalid_format",
  ],
  ["assisted is a boolean", (a) => (a.entrypoints[0].assisted = "yes"), "entrypoints.0.assisted", "invalid_type"],
  ["fields at least one", (a) => (a.entrypoints[0].fields = []), "entrypoints.0.fields", "too_few"],
  [
    "register typology objectType",
    (a) => (a.entrypoints[0].typology.register.objectType = "x"),
    "entrypoints.0.typology.register.objectType",
    "invalid_value",
  ],
  ["work typology required", (a) => delete a.entrypoints[0].typology.work, "entrypoints.0.typology.work", "required"],
  [
    "register typology from the catalog",
    (a) => (a.entrypoints[0].typology.register.id = "nope"),
    "entrypoints.0.typology.register.id",
    "unknown_key",
  ],
  [
    "work typology from the catalog",
    (a) => (a.entrypoints[0].typology.work.id = "nope"),
    "entrypoints.0.typology.work.id",
    "unknown_key",
  ],
  [
    "fieldConfig objectType",
    (a) => (field(a, 0).objectType = "field"),
    "entrypoints.0.fields.0.objectType",
    "invalid_value",
  ],
  ["fieldConfig type id|field", (a) => (field(a, 0).type = "other"), "entrypoints.0.fields.0.type", "invalid_value"],
  ["id key from the four", (a) => (field(a, 1).key = "username"), "entrypoints.0.fields.1.key", "invalid_value"],
  ["id main is required", (a) => delete field(a, 1).main, "entrypoints.0.fields.1.main", "required"],
  ["id mandatory is required", (a) => delete field(a, 1).mandatory, "entrypoints.0.fields.1.mandatory", "required"],
  [
    "id requiresConfirmation is required",
    (a) => delete field(a, 1).requiresConfirmation,
    "entrypoints.0.fields.1.requiresConfirmation",
    "required",
  ],
  [
    "requiresConfirmation only email/phone",
    (a) => Object.assign(field(a, 1), { key: "national_id", requiresConfirmation: true }),
    "entrypoints.0.fields.1.requiresConfirmation",
    "not_allowed",
  ],
  [
    "requiresVerification only national_id",
    (a) => (field(a, 0).requiresVerification = true),
    "entrypoints.0.fields.0.requiresVerification",
    "not_allowed",
  ],
  [
    "requiresVerification needs a verification platform",
    (a) => Object.assign(field(a, 1), { key: "national_id", requiresVerification: true }),
    "entrypoints.0.fields.1.requiresVerification",
    "not_allowed",
  ],
  ["one id key once", (a) => (field(a, 1).key = "email"), "entrypoints.0.fields.1.key", "duplicate"],
  ["several ids: exactly one main", (a) => (field(a, 0).main = false), "entrypoints.0.fields", "main_required"],
  [
    "several ids: not two mains",
    (a) => Object.assign(field(a, 1), { main: true, requiresConfirmation: true, mandatory: true }),
    "entrypoints.0.fields",
    "main_required",
  ],
  ["main must be mandatory", (a) => (field(a, 0).mandatory = false), "entrypoints.0.fields.0.main", "main_rules"],
  [
    "main must require confirmation",
    (a) => (field(a, 0).requiresConfirmation = false),
    "entrypoints.0.fields.0.main",
    "main_rules",
  ],
  ["data key from the catalog", (a) => (field(a, 2).key = "shoe_size"), "entrypoints.0.fields.2.key", "unknown_key"],
  ["data key once", (a) => (field(a, 3).key = "name"), "entrypoints.0.fields.3.key", "duplicate"],
  ["step is 1 or 2", (a) => (field(a, 3).step = 3), "entrypoints.0.fields.3.step", "invalid_value"],
  [
    "step far out of range is invalid_value, not a 5xx",
    (a) => (field(a, 3).step = 4294967297),
    "entrypoints.0.fields.3.step",
    "invalid_value",
  ],
  ["step is an integer", (a) => (field(a, 3).step = 1.5), "entrypoints.0.fields.3.step", "invalid_type"],
  ["main not on data fields", (a) => (field(a, 2).main = true), "entrypoints.0.fields.2.main", "not_allowed"],
  [
    "useForValidation not on id fields",
    (a) => (field(a, 0).useForValidation = true),
    "entrypoints.0.fields.0.useForValidation",
    "not_allowed",
  ],
  [
    "useForValidation is a boolean",
    (a) => (field(a, 2).useForValidation = 1),
    "entrypoints.0.fields.2.useForValidation",
    "invalid_type",
  ],
];

describe("application rules", () => {
  it.each(cases)("%s", async (_name, mutate, path, code) => {
    const body = validApplication();
    mutate(body);
    const res = await post(body);
    expect(res.statusCode).toBe(400);
    const json = res.json();
    expect(json.result.status).toBe(400);
    expect(json.errors.code).toBe("validation_failed");
    expect(json.errors.items).toContainEqual(expect.objectContaining({ field: path, code }));
    expect(typeof json.errors.message).toBe("string");
    expect(typeof json.errors.details).toBe("string");
  });

  it("reports every violation at once, one with sc=true, in the caller's language, and stores nothing", async () => {
    const { rows: before } = await s.stores.db.query("SELECT client_id FROM registry.clients");
    const body = validApplication();
    body.url = "nope";
    body.organizationSchemaOrg.identifier = "acme";
    body.entrypoints[0].fields[2].key = "shoe_size";
    const all = await post(body, "", "es-ES");
    expect(all.statusCode).toBe(400);
    const fields = all.json().errors.items.map((i: { field: string }) => i.field);
    expect(fields).toEqual(
      expect.arrayContaining(["url", "organizationSchemaOrg.identifier", "entrypoints.0.fields.2.key"]),
    );
    expect(all.json().errors.message).toBe("La petición tiene campos no válidos.");
    const one = await post(body, "?sc=true");
    expect(one.json().errors.items).toHaveLength(1);
    const { rows: after } = await s.stores.db.query("SELECT client_id FROM registry.clients");
    expect(after.length).toBe(before.length);
  });

  it("reports the structure's violations (required, unknown, type) together with the rules' (formats, catalogs, field rules)", async () => {
    const { rows: before } = await s.stores.db.query("SELECT client_id FROM registry.clients");
    const body = validApplication();
    delete body.url;
    body.extra = 1;
    body.objectType = "app";
    body.displayName = 5;
    body.contact.support.schemaOrg.email.value = "nope";
    body.organizationSchemaOrg.identifier = "acme";
    field(body, 2).key = "shoe_size";
    field(body, 0).mandatory = false;
    const res = await post(body);
    expect(res.statusCode).toBe(400);
    const items = res.json().errors.items.map((i: { field: string; code: string }) => `${i.field}:${i.code}`);
    expect([...items].sort()).toEqual(
      [
        "url:required",
        "extra:unknown_member",
        "objectType:invalid_value",
        "displayName:invalid_type",
        "contact.support.schemaOrg.email.value:invalid_format",
        "organizationSchemaOrg.identifier:unknown_key",
        "entrypoints.0.fields.2.key:unknown_key",
        "entrypoints.0.fields.0.main:main_rules",
      ].sort(),
    );
    expect((await post(body, "?sc=true")).json().errors.items).toHaveLength(1);
    const { rows: after } = await s.stores.db.query("SELECT client_id FROM registry.clients");
    expect(after.length).toBe(before.length);
  });

  it("names every required row of the tables under a missing member", async () => {
    const body = validApplication();
    delete body.contact.support;
    delete body.entrypoints[0].typology;
    delete field(body, 0).key;
    const fields = (await post(body))
      .json()
      .errors.items.map((i: { field: string; code: string }) => `${i.field}:${i.code}`);
    expect(fields).toEqual(
      expect.arrayContaining([
        "contact.support.objectType:required",
        "contact.support.schemaOrg.email.value:required",
        "contact.support.schemaOrg.mobile.value:required",
        "entrypoints.0.typology.register.objectType:required",
        "entrypoints.0.typology.work.objectType:required",
        "entrypoints.0.fields.0.key:required",
      ]),
    );
    const empty = (await post({})).json().errors.items.map((i: { field: string }) => i.field);
    const rows = [
      "objectType",
      "displayName",
      "url",
      "redirectUris",
      "organizationSchemaOrg.identifier",
      "entrypoints",
    ];
    const people = ["support", "projectManager", "productOwner"].flatMap((p) => [
      `contact.${p}.objectType`,
      `contact.${p}.schemaOrg.email.value`,
    ]);
    expect(empty).toEqual(expect.arrayContaining([...rows, ...people, "contact.support.schemaOrg.mobile.value"]));
    expect(empty).not.toContain("contact.projectManager.schemaOrg.mobile.value");
  });

  it("names the rules' violations beside an array element of the wrong type, at the positions sent", async () => {
    const body = validApplication();
    body.redirectUris = [5, "https://shop.example.com/a", "https://shop.example.com/a"];
    body.entrypoints[0].fields.splice(1, 0, null);
    field(body, 3).key = "shoe_size";
    const items = (await post(body))
      .json()
      .errors.items.map((i: { field: string; code: string }) => `${i.field}:${i.code}`);
    expect([...items].sort()).toEqual(
      [
        "redirectUris.0:invalid_type",
        "redirectUris.2:duplicate",
        "entrypoints.0.fields.1:invalid_type",
        "entrypoints.0.fields.3.key:unknown_key",
      ].sort(),
    );
  });

  it("a missing or unknown id key is one violation, not also its requiresConfirmation's", async () => {
    for (const [mutate, code] of [
      [(a: App) => delete field(a, 0).key, "required"],
      [(a: App) => (field(a, 0).key = "username"), "invalid_value"],
    ] as const) {
      const body = validApplication();
      mutate(body);
      const items = (await post(body))
        .json()
        .errors.items.map((i: { field: string; code: string }) => `${i.field}:${i.code}`);
      expect(items).toEqual([`entrypoints.0.fields.0.key:${code}`]);
    }
  });

  it("refuses an entry point id that two entry points would share", async () => {
    const body = validApplication();
    const second = structuredClone(body.entrypoints[0]);
    second.key = "0";
    delete body.entrypoints[0].key;
    body.entrypoints.push(second);
    // entry point 0 gets {id}_0 from its index; entry point 1 asks for key "0".
    const res = await post(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.items).toContainEqual(
      expect.objectContaining({ field: "entrypoints.1.key", code: "duplicate" }),
    );
  });

  it("accepts a single id field without main, and the catalog defaults", async () => {
    const body = validApplication();
    body.entrypoints[0].fields = [
      {
        objectType: "fieldConfig",
        type: "id",
        key: "screen_name",
        main: false,
        mandatory: true,
        requiresConfirmation: false,
      },
    ];
    body.organizationSchemaOrg.brand = "default";
    body.schemaOrg = { applicationCategory: "default" };
    const res = await post(body);
    expect(res.statusCode).toBe(201);
  });
});
