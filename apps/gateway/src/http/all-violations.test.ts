import { domainError, validationError } from "@gatehouse/errors";
import { describe, expect, it } from "vitest";
import { withRuleViolations } from "./all-violations.ts";

const schemaError = (...fields: [string, string][]) =>
  Object.assign(new Error("request validation failed"), {
    violations: fields.map(([field, code]) => ({ field, code })),
  });
const items = (e: { violations?: { field: string; code: string }[] }) =>
  e.violations!.map((v) => `${v.field}:${v.code}`);

describe("the schema's violations with the rules' of the rest", () => {
  it("asks about the body without the refused members and adds what the rules find, not twice for one path", async () => {
    let seen: unknown;
    const err = await withRuleViolations(
      schemaError(["extra", "unknown_member"], ["url", "invalid_type"], ["contact.support", "required"]),
      { extra: 1, url: 5, key: "Bad", contact: {} },
      async (rest) => {
        seen = rest;
        throw validationError([
          { field: "url", code: "required" },
          { field: "contact.support.objectType", code: "required" },
          { field: "key", code: "invalid_format" },
        ]);
      },
    );
    expect(seen).toEqual({ key: "Bad", contact: {} });
    // The required rows under a missing member are named too; nothing else under a named path.
    expect(items(err)).toEqual([
      "extra:unknown_member",
      "url:invalid_type",
      "contact.support:required",
      "contact.support.objectType:required",
      "key:invalid_format",
    ]);
  });

  it("names the required rows under a missing member, not the rules' other findings there", async () => {
    const err = await withRuleViolations(schemaError(["contact", "required"], ["url", "required"]), {}, async () => {
      throw validationError([
        { field: "url", code: "required" },
        { field: "contact.support.schemaOrg.email.value", code: "required" },
        { field: "contact.support.schemaOrg.mobile.value", code: "invalid_format" },
        { field: "contactless", code: "required" },
      ]);
    });
    expect(items(err)).toEqual([
      "contact:required",
      "url:required",
      "contact.support.schemaOrg.email.value:required",
      "contactless:required",
    ]);
  });

  it("asks without a refused array element and names the rules' findings at the positions sent", async () => {
    let seen: unknown;
    const body = {
      redirectUris: [5, "a", "b"],
      entrypoints: [{ fields: [{ key: "x" }, null, { key: "y" }, "z", { key: "w" }] }, 7, { fields: [] }],
    };
    const refused = schemaError(
      ["redirectUris.0", "invalid_type"],
      ["entrypoints.0.fields.1", "invalid_type"],
      ["entrypoints.0.fields.3", "invalid_type"],
      ["entrypoints.1", "invalid_type"],
    );
    const err = await withRuleViolations(refused, body, async (rest) => {
      seen = rest;
      throw validationError([
        { field: "redirectUris.1", code: "duplicate" },
        { field: "entrypoints.0.fields.1.key", code: "unknown_key" },
        { field: "entrypoints.0.fields.2.key", code: "unknown_key" },
        { field: "entrypoints.1.fields", code: "too_few" },
      ]);
    });
    expect(seen).toEqual({
      redirectUris: ["a", "b"],
      entrypoints: [{ fields: [{ key: "x" }, { key: "y" }, { key: "w" }] }, { fields: [] }],
    });
    expect(items(err).slice(4)).toEqual([
      "redirectUris.2:duplicate",
      "entrypoints.0.fields.2.key:unknown_key",
      "entrypoints.0.fields.4.key:unknown_key",
      "entrypoints.2.fields:too_few",
    ]);
  });

  it("answers the schema's alone when the body is refused, when the rules pass or fail otherwise", async () => {
    const never = async () => {
      throw new Error("not asked");
    };
    expect(items(await withRuleViolations(schemaError(["", "invalid_type"]), [], never))).toEqual([":invalid_type"]);
    expect(items(await withRuleViolations(schemaError(["x", "unknown_member"]), { x: 1 }, async () => ({})))).toEqual([
      "x:unknown_member",
    ]);
    const notFound = async () => {
      throw domainError("APPLICATION_NOT_FOUND");
    };
    expect(items(await withRuleViolations(schemaError(["x", "unknown_member"]), { x: 1 }, notFound))).toEqual([
      "x:unknown_member",
    ]);
  });
});
