import { create } from "@bufbuild/protobuf";
import { EntrypointSchema, FieldConfigSchema } from "@gatehouse/proto";
import { describe, expect, it } from "vitest";
import { outsideKey, sortOutsideKeys } from "./outside-keys.ts";

const ep = create(EntrypointSchema, {
  id: "1_web",
  fields: [
    create(FieldConfigSchema, { type: "id", key: "email" }),
    create(FieldConfigSchema, { type: "field", key: "name" }),
  ],
});

describe("keys outside the entry point", () => {
  it("an identifier of the spec the entry point lacks is not_in_entrypoint; any other identifier key is unknown_key", () => {
    expect(outsideKey(ep, "ids", "phone_number")).toEqual({
      field: "object.ids.phone_number",
      code: "not_in_entrypoint",
      description: "not one of this entry point's identifier fields (email)",
    });
    expect(outsideKey(ep, "ids", "passport")).toMatchObject({ field: "object.ids.passport", code: "unknown_key" });
  });

  it("a data key is unknown_key only when the operator's catalog lacks it too; the catalog is asked only then", async () => {
    let asked = 0;
    const catalog = async () => (asked++, new Set(["name", "surname"]));
    const violations = [
      outsideKey(ep, "datas", "surname"),
      outsideKey(ep, "datas", "shoe_size"),
      { field: "object.datas.name.value", code: "required" },
    ];
    const sorted = await sortOutsideKeys(violations, catalog);
    expect(sorted.map((v) => `${v.field}:${v.code}`)).toEqual([
      "object.datas.surname:not_in_entrypoint",
      "object.datas.shoe_size:unknown_key",
      "object.datas.name.value:required",
    ]);
    expect(sorted[0]!.description).toBe("not one of this entry point's data fields (name)");
    expect(asked).toBe(1);
    expect(await sortOutsideKeys([{ field: "object.datas.name.value", code: "required" }], catalog)).toHaveLength(1);
    expect(asked).toBe(1);
  });

  it("without a catalog, or when it cannot be read, the keys stay not_in_entrypoint (true either way)", async () => {
    const violations = [outsideKey(ep, "datas", "shoe_size")];
    expect((await sortOutsideKeys(violations, undefined))[0]!.code).toBe("not_in_entrypoint");
    expect((await sortOutsideKeys(violations, () => Promise.reject(new Error("registry down"))))[0]!.code).toBe(
      "not_in_entrypoint",
    );
  });
});
