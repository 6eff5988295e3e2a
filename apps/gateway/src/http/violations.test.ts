import Type from "typebox";
import { Compile } from "typebox/compile";
import { describe, expect, it } from "vitest";
import { toViolations } from "./violations.ts";

describe("toViolations", () => {
  const schema = Type.Object(
    {
      objectType: Type.Literal("application"),
      name: Type.String(),
      list: Type.Array(Type.Object({ on: Type.Boolean() }, { additionalProperties: false }), { minItems: 1 }),
    },
    { additionalProperties: false },
  );
  const v = Compile(schema);

  it("maps every TypeBox error to a dotted path and an item code", () => {
    const value = { objectType: "app", list: [{ on: "yes", extra: 1 }], other: true };
    const out = toViolations(v.Errors(value));
    expect(out).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: "objectType", code: "invalid_value" }),
        expect.objectContaining({ field: "name", code: "required" }),
        expect.objectContaining({ field: "other", code: "unknown_member" }),
        expect.objectContaining({ field: "list.0.on", code: "invalid_type" }),
        expect.objectContaining({ field: "list.0.extra", code: "unknown_member" }),
      ]),
    );
  });
  it("reports empty arrays and prefixes non-body parts", () => {
    expect(toViolations(v.Errors({ objectType: "application", name: "x", list: [] }))).toEqual([
      expect.objectContaining({ field: "list", code: "too_few" }),
    ]);
    expect(toViolations(v.Errors({ objectType: "application", list: [{ on: true }] }), "query")[0]!.field).toBe(
      "query.name",
    );
  });
});
