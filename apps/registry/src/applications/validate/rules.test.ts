import { Code } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { application, backends, failure, validApplicationJson } from "../../../test/harness.ts";
import { dataField, ep, idField, itRejectsEachCase, useRuleSuite, type Case } from "../../../test/rule-cases.ts";

// One case per rule of the Application table (entry points and their fields:
// entrypoint-rules.test.ts), and what a request breaking several rules gets.

const applicationCases: Case[] = [
  ["objectType missing", (a) => delete a.objectType, [["objectType", "required"]]],
  ["objectType wrong", (a) => (a.objectType = "app"), [["objectType", "invalid_value"]]],
  ["key with capitals", (a) => (a.key = "Shop"), [["key", "invalid_format"]]],
  ["key too long", (a) => (a.key = "a".repeat(33)), [["key", "invalid_format"]]],
  ["key starting with a dash", (a) => (a.key = "-shop"), [["key", "invalid_format"]]],
  ["displayName missing", (a) => delete a.displayName, [["displayName", "required"]]],
  ["displayName blank", (a) => (a.displayName = "   "), [["displayName", "required"]]],
  ["displayName too long", (a) => (a.displayName = "x".repeat(201)), [["displayName", "too_long"]]],
  ["url missing", (a) => delete a.url, [["url", "required"]]],
  ["url not http(s)", (a) => (a.url = "ftp://shop.example.com"), [["url", "invalid_format"]]],
  ["url relative", (a) => (a.url = "/shop"), [["url", "invalid_format"]]],
  [
    "url longer than 2048 characters",
    (a) => (a.url = `https://shop.example.com/${"x".repeat(2048)}`),
    [["url", "too_long"]],
  ],
  [
    "support not a person",
    (a) => (a.contact.support.objectType = "org"),
    [["contact.support.objectType", "invalid_value"]],
  ],
  [
    "projectManager objectType missing",
    (a) => delete a.contact.projectManager.objectType,
    [["contact.projectManager.objectType", "required"]],
  ],
  [
    "productOwner not a person",
    (a) => (a.contact.productOwner.objectType = "team"),
    [["contact.productOwner.objectType", "invalid_value"]],
  ],
  [
    "support email missing",
    (a) => delete a.contact.support.schemaOrg.email,
    [["contact.support.schemaOrg.email.value", "required"]],
  ],
  [
    "support email invalid",
    (a) => (a.contact.support.schemaOrg.email.value = "support"),
    [["contact.support.schemaOrg.email.value", "invalid_format"]],
  ],
  [
    "projectManager email invalid",
    (a) => (a.contact.projectManager.schemaOrg.email.value = "pm@"),
    [["contact.projectManager.schemaOrg.email.value", "invalid_format"]],
  ],
  [
    "productOwner email missing",
    (a) => delete a.contact.productOwner,
    [
      ["contact.productOwner.objectType", "required"],
      ["contact.productOwner.schemaOrg.email.value", "required"],
    ],
  ],
  [
    "productOwner email invalid",
    (a) => (a.contact.productOwner.schemaOrg.email.value = "po at example.com"),
    [["contact.productOwner.schemaOrg.email.value", "invalid_format"]],
  ],
  [
    "support mobile missing",
    (a) => delete a.contact.support.schemaOrg.mobile,
    [["contact.support.schemaOrg.mobile.value", "required"]],
  ],
  [
    "support mobile not E.164",
    (a) => (a.contact.support.schemaOrg.mobile.value = "600000000"),
    [["contact.support.schemaOrg.mobile.value", "invalid_format"]],
  ],
  ["redirectUris empty", (a) => (a.redirectUris = []), [["redirectUris", "too_few"]]],
  ["redirectUri relative", (a) => (a.redirectUris = ["/callback"]), [["redirectUris.0", "invalid_format"]]],
  [
    "redirectUri with fragment",
    (a) => (a.redirectUris = ["https://shop.example.com/cb#x"]),
    [["redirectUris.0", "invalid_format"]],
  ],
  [
    "redirectUri with a wildcard host",
    (a) => a.redirectUris.push("https://*.shop.example.com/cb"),
    [["redirectUris.1", "invalid_format"]],
  ],
  [
    "redirectUri javascript:",
    (a) => a.redirectUris.push("javascript:alert(1)"),
    [["redirectUris.1", "invalid_format"]],
  ],
  ["redirectUri data:", (a) => a.redirectUris.push("data:text/html,hi"), [["redirectUris.1", "invalid_format"]]],
  ["redirectUri vbscript:", (a) => a.redirectUris.push("VBScript:msgbox"), [["redirectUris.1", "invalid_format"]]],
  ["redirectUri file:", (a) => a.redirectUris.push("file:///etc/passwd"), [["redirectUris.1", "invalid_format"]]],
  ["redirectUri repeated", (a) => a.redirectUris.push(a.redirectUris[0]), [["redirectUris.1", "duplicate"]]],
  [
    "more than 20 redirectUris",
    (a) => (a.redirectUris = Array.from({ length: 21 }, (_, i) => `https://shop.example.com/${i}`)),
    [["redirectUris", "too_many"]],
  ],
  [
    "organisation missing",
    (a) => delete a.organizationSchemaOrg.identifier,
    [["organizationSchemaOrg.identifier", "required"]],
  ],
  [
    "organisation unknown",
    (a) => (a.organizationSchemaOrg.identifier = "acme"),
    [["organizationSchemaOrg.identifier", "unknown_key"]],
  ],
  ["brand unknown", (a) => (a.organizationSchemaOrg.brand = "acme"), [["organizationSchemaOrg.brand", "unknown_key"]]],
  [
    "applicationCategory unknown",
    (a) => (a.schemaOrg.applicationCategory = "games"),
    [["schemaOrg.applicationCategory", "unknown_key"]],
  ],
  ["entrypoints empty", (a) => (a.entrypoints = []), [["entrypoints", "too_few"]]],
];

describe.each(backends)("application rules on %s", (_name, open) => {
  const suite = useRuleSuite(open);
  const { rejects } = suite;
  itRejectsEachCase(rejects, applicationCases);

  it("describes a missing identifier field", async () => {
    const err = await rejects((a) => (ep(a).fields = [dataField("name")]));
    expect(err.violations).toEqual([
      { field: "entrypoints.0.fields", code: "too_few", description: "an entry point needs an identifier field" },
    ]);
  });

  it("reports every violation of a request at once", async () => {
    const err = await rejects((a) => {
      a.objectType = "app";
      a.url = "shop";
      a.redirectUris = ["javascript:void(0)", "https://ok.example.com"];
      a.organizationSchemaOrg.identifier = "nope";
      ep(a).fields[0].requiresConfirmation = false;
      ep(a).fields.push(idField("screen_name", { step: 2 }), dataField("nope"));
      a.entrypoints.push({ objectType: "entrypoint", displayName: "", fields: [], typology: {} });
    });
    expect(err.violations.map((v) => [v.field, v.code])).toEqual([
      ["objectType", "invalid_value"],
      ["url", "invalid_format"],
      ["redirectUris.0", "invalid_format"],
      ["organizationSchemaOrg.identifier", "unknown_key"],
      ["entrypoints.0.fields.2.step", "not_allowed"],
      ["entrypoints.0.fields.3.key", "unknown_key"],
      ["entrypoints.0.fields.0.main", "main_rules"],
      ["entrypoints.1.displayName", "required"],
      ["entrypoints.1.typology.register.objectType", "required"],
      ["entrypoints.1.typology.work.objectType", "required"],
      ["entrypoints.1.fields", "too_few"],
    ]);
  });

  it("answers a request without an application with every required field", async () => {
    const err = await failure(suite.harness().operator.createApplication({}));
    expect(err.code).toBe(Code.InvalidArgument);
    const fields = err.violations.map((v) => v.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        "objectType",
        "displayName",
        "url",
        "contact.support.schemaOrg.mobile.value",
        "redirectUris",
        "organizationSchemaOrg.identifier",
        "entrypoints",
      ]),
    );
  });

  it("allows requiresVerification on national_id when face verification is purchased", async () => {
    const json = validApplicationJson();
    ep(json).fields.push(idField("national_id", { requiresVerification: true }));
    const res = await suite
      .harness()
      .withFaceVerification.operator.createApplication({ application: application(json) });
    expect(res.application?.entrypoints[0]?.fields[2]?.requiresVerification).toBe(true);
    const err = await failure(
      suite.harness().withFaceVerification.operator.createApplication({
        application: application({
          ...json,
          entrypoints: [
            { ...ep(json), fields: [ep(json).fields[0], idField("screen_name", { requiresVerification: true })] },
          ],
        }),
      }),
    );
    expect(err.violations.map((v) => [v.field, v.code])).toEqual([
      ["entrypoints.0.fields.1.requiresVerification", "not_allowed"],
    ]);
  });

  it("accepts one non-main identifier, and several with a confirmed mandatory main", async () => {
    const single = validApplicationJson();
    ep(single).fields = [idField("screen_name", { mandatory: true })];
    await expect(
      suite.harness().operator.createApplication({ application: application(single) }),
    ).resolves.toBeDefined();
    const several = validApplicationJson();
    ep(several).fields.push(
      idField("phone_number", { requiresConfirmation: true }),
      idField("national_id"),
      idField("screen_name"),
    );
    await expect(
      suite.harness().operator.createApplication({ application: application(several) }),
    ).resolves.toBeDefined();
  });
});
