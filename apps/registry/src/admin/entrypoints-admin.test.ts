import { fromJson, type JsonObject } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { EntrypointSchema } from "@gatehouse/proto";
import { describe, expect, it } from "vitest";
import { auditRows, useAdminApplications } from "../../test/admin-applications.ts";
import { backends, failure, validApplicationJson, type Harness } from "../../test/harness.ts";

const entrypoint = (json: JsonObject) => fromJson(EntrypointSchema, json);
const webEntrypoint = (key?: string): JsonObject => ({
  ...(validApplicationJson().entrypoints as JsonObject[])[0]!,
  ...(key === undefined ? {} : { key }),
  displayName: "Mobile",
});

describe.each(backends)("RegistryAdminService entry points on %s", (_name, open) => {
  let h: Harness;
  const created = useAdminApplications(open, (harness) => (h = harness));
  const audit = (target: string) => auditRows(h, target);

  it("adds an entry point under every rule, with its id and defaults; refuses a clash and broken rules", async () => {
    const id = created[2]!;
    const added = await h.admin.addEntrypoint({ clientId: id, entrypoint: entrypoint(webEntrypoint("mobile")) });
    expect(added.entrypoint).toMatchObject({
      id: `${id}_mobile`,
      assisted: false,
      passwordless: false,
      typology: { register: { id: "consumer" }, work: { id: "consumer" } },
    });
    const unkeyed = await h.admin.addEntrypoint({ clientId: id, entrypoint: entrypoint(webEntrypoint("")) });
    expect(unkeyed.entrypoint?.id).toBe(`${id}_2`);
    const eps = (await h.admin.getApplicationRecord({ clientId: id })).application!.application!.entrypoints.map(
      (e) => e.id,
    );
    expect(eps).toEqual([`${id}_web`, `${id}_mobile`, `${id}_2`]);
    const clash = await failure(
      h.admin.addEntrypoint({ clientId: id, entrypoint: entrypoint(webEntrypoint("mobile")) }),
    );
    expect(clash.violations).toMatchObject([{ field: "key", code: "duplicate" }]);
    const bad = await failure(
      h.admin.addEntrypoint({
        clientId: id,
        entrypoint: entrypoint({
          objectType: "entrypoint",
          displayName: "",
          fields: [{ objectType: "fieldConfig", type: "field", key: "nope" }],
          typology: {},
        }),
      }),
    );
    expect(bad.violations.map((v) => `${v.field}:${v.code}`)).toEqual([
      "displayName:required",
      "typology.register.objectType:required",
      "typology.work.objectType:required",
      "fields.0.key:unknown_key",
      "fields:too_few",
    ]);
    expect((await audit(`${id}_mobile`)).map((r) => r.action)).toEqual(["entrypoint.create"]);
    expect(
      (await failure(h.admin.addEntrypoint({ clientId: "999999999999", entrypoint: entrypoint(webEntrypoint("x")) })))
        .reason,
    ).toBe("APPLICATION_NOT_FOUND");
  });

  it("changes an entry point's display name, fields and flags; the internal read sees it; 404 for another application's", async () => {
    const id = created[2]!;
    const epId = `${id}_web`;
    const fields: JsonObject[] = [
      { objectType: "fieldConfig", type: "id", key: "email", main: true, mandatory: true, requiresConfirmation: true },
      { objectType: "fieldConfig", type: "field", key: "birthday", mandatory: false, step: 2 },
    ];
    const res = await h.admin.updateEntrypoint({
      clientId: id,
      entrypointId: epId,
      displayName: "Web 2",
      passwordless: true,
      fields: {
        values: fields.map(
          (f) => fromJson(EntrypointSchema, { objectType: "entrypoint", displayName: "x", fields: [f] }).fields[0]!,
        ),
      },
    });
    expect(res.entrypoint).toMatchObject({ id: epId, displayName: "Web 2", passwordless: true, assisted: false });
    expect(res.entrypoint?.fields[1]).toMatchObject({
      key: "birthday",
      mandatory: false,
      step: 2,
      useForValidation: false,
    });
    expect((await h.internal.getEntrypoint({ entrypointId: epId })).entrypoint?.displayName).toBe("Web 2");
    const bad = await failure(h.admin.updateEntrypoint({ clientId: id, entrypointId: epId, displayName: "" }));
    expect(bad.violations).toMatchObject([{ field: "displayName", code: "required" }]);
    const foreign = await failure(
      h.admin.updateEntrypoint({ clientId: created[0]!, entrypointId: epId, displayName: "x" }),
    );
    expect([foreign.code, foreign.reason]).toEqual([Code.NotFound, "ENTRYPOINT_NOT_FOUND"]);
    expect((await audit(epId)).map((r) => r.action)).toEqual(["entrypoint.update"]);
  });
});
