import { create } from "@bufbuild/protobuf";
import { PersonSchema } from "@gatehouse/proto";
import { describe, expect, it } from "vitest";
import { auditRows, useAdminApplications } from "../../test/admin-applications.ts";
import {
  ADMIN_ADDRESS,
  application,
  backends,
  failure,
  OPERATOR_ACTOR,
  validApplicationJson,
  type Harness,
} from "../../test/harness.ts";

describe.each(backends)("RegistryAdminService applications on %s", (_name, open) => {
  let h: Harness;
  const created = useAdminApplications(open, (harness) => (h = harness));
  const audit = (target: string) => auditRows(h, target);

  it("lists and searches in client_id order, by displayName substring (any case) or client_id prefix, in pages", async () => {
    const all = await h.admin.listApplications({});
    expect(all.applications.map((a) => a.application!.id)).toEqual([...created].sort());
    expect(all.nextPageToken).toBe("");
    expect(all.applications[0]!.settings).toMatchObject({ mfa: "off", defaultCallback: "" });
    const alpha = await h.admin.listApplications({ query: "ALPHA" });
    expect(alpha.applications.map((a) => a.application!.displayName).sort()).toEqual(["Alpha Shop", "alphabet soup"]);
    const byId = await h.admin.listApplications({ query: created[1]!.slice(0, 12) });
    expect(byId.applications.map((a) => a.application!.id)).toEqual([created[1]]);
    expect((await h.admin.listApplications({ query: "%" })).applications).toEqual([]);
    const first = await h.admin.listApplications({ pageSize: 2 });
    expect(first.applications).toHaveLength(2);
    const second = await h.admin.listApplications({ pageSize: 2, pageToken: first.nextPageToken });
    expect(second.applications.map((a) => a.application!.id)).toEqual([[...created].sort()[2]]);
    expect(second.nextPageToken).toBe("");
    expect((await failure(h.admin.listApplications({ pageToken: "garbage" }))).violations).toMatchObject([
      { field: "cursor", code: "invalid_value" },
    ]);
    expect((await failure(h.admin.listApplications({ pageSize: 201 }))).violations).toMatchObject([{ field: "limit" }]);
  });

  it("reads an application with its settings; 404 for an unknown one or an operator client", async () => {
    const got = await h.reader.getApplicationRecord({ clientId: created[0]! });
    expect(got.application?.application?.entrypoints).toHaveLength(1);
    expect(got.application?.settings?.whitelist).toEqual(["https://shop.example.com/callback"]);
    await h.internal.ensureOperatorClient({ clientId: "ops-x", clientSecret: "s".repeat(20) });
    for (const clientId of ["999999999999", "ops-x"])
      expect((await failure(h.admin.getApplicationRecord({ clientId }))).reason).toBe("APPLICATION_NOT_FOUND");
  });

  it("updates display name, URL, redirect URIs, a contact person and settings under the creation rules, audited", async () => {
    const id = created[0]!;
    const pm = create(PersonSchema, { objectType: "person", schemaOrg: { email: { value: "new.pm@example.com" } } });
    const res = await h.admin.updateApplication({
      clientId: id,
      displayName: "Alpha Shop 2",
      url: "https://alpha.example.com",
      redirectUris: { values: ["https://alpha.example.com/cb", "com.example.app:/cb"] },
      contact: { projectManager: pm },
      mfa: "optional",
    });
    const app = res.application!.application!;
    expect(app).toMatchObject({
      displayName: "Alpha Shop 2",
      url: "https://alpha.example.com",
      redirectUris: ["https://alpha.example.com/cb", "com.example.app:/cb"],
    });
    expect(app.contact?.projectManager?.schemaOrg?.email?.value).toBe("new.pm@example.com");
    expect(app.contact?.support?.schemaOrg?.mobile?.value).toBe("+34600000000");
    expect(res.application!.settings).toMatchObject({
      mfa: "optional",
      whitelist: ["https://shop.example.com/callback"],
    });
    expect((await h.admin.listApplications({ query: "Shop 2" })).applications.map((a) => a.application!.id)).toEqual([
      id,
    ]);
    const rows = await audit(id);
    expect(rows.at(-1)).toEqual({
      actor: OPERATOR_ACTOR,
      action: "application.update",
      address: ADMIN_ADDRESS,
      details: {
        changed: ["displayName", "url", "redirectUris", "mfa", "contact.projectManager"],
        displayName: "Alpha Shop 2",
        url: "https://alpha.example.com",
        redirectUris: ["https://alpha.example.com/cb", "com.example.app:/cb"],
        mfa: "optional",
      },
    });
    expect(JSON.stringify(rows.at(-1))).not.toContain("new.pm@example.com");
  });

  it("400 with one violation per broken rule of what was sent; nothing changes", async () => {
    const id = created[1]!;
    const err = await failure(
      h.admin.updateApplication({
        clientId: id,
        displayName: " ",
        url: "ftp://x",
        redirectUris: { values: ["javascript:alert(1)", "https://ok.example.com/cb", "https://ok.example.com/cb"] },
        contact: {
          support: create(PersonSchema, { objectType: "person", schemaOrg: { email: { value: "not-an-email" } } }),
        },
        whitelist: { values: ["http://evil.example.com"] },
      }),
    );
    expect(err.reason).toBe("VALIDATION_FAILED");
    expect(err.violations.map((v) => `${v.field}:${v.code}`)).toEqual([
      "displayName:required",
      "url:invalid_format",
      "contact.support.schemaOrg.email.value:invalid_format",
      "contact.support.schemaOrg.mobile.value:required",
      "redirectUris.0:invalid_format",
      "redirectUris.2:duplicate",
      "whitelist.0:invalid_value",
    ]);
    expect(
      (await failure(h.admin.updateApplication({ clientId: id, redirectUris: { values: [] } }))).violations,
    ).toMatchObject([{ field: "redirectUris", code: "too_few" }]);
    expect((await h.admin.getApplicationRecord({ clientId: id })).application?.application?.displayName).toBe(
      "Beta Store",
    );
    expect((await failure(h.admin.updateApplication({ clientId: "999999999999", displayName: "x" }))).reason).toBe(
      "APPLICATION_NOT_FOUND",
    );
  });

  it("rotates the secret: the new one works, the old one fails at once; audited without the secret", async () => {
    const res = await h.operator.createApplication({ application: application(validApplicationJson()) });
    const id = res.application!.id;
    const rotated = await h.admin.rotateClientSecret({ clientId: id });
    expect(rotated.secretVersion).toBe(2);
    expect(Buffer.from(rotated.clientSecret, "base64url").length).toBe(32);
    expect(
      (await h.internal.authenticateClient({ clientId: id, clientSecret: rotated.clientSecret })).secretVersion,
    ).toBe(2);
    expect((await failure(h.internal.authenticateClient({ clientId: id, clientSecret: res.password }))).reason).toBe(
      "INVALID_CLIENT",
    );
    expect((await h.operator.revealClientSecret({ clientId: id })).clientSecret).toBe(rotated.clientSecret);
    const rows = await audit(id);
    expect(rows.map((r) => r.action)).toEqual(["application.create", "client_secret.rotate", "client_secret.reveal"]);
    expect(rows[1]!.details).toEqual({ secretVersion: 2 });
    expect(JSON.stringify(rows)).not.toContain(rotated.clientSecret);
    expect((await failure(h.admin.rotateClientSecret({ clientId: "999999999999" }))).reason).toBe(
      "APPLICATION_NOT_FOUND",
    );
  });

  it("needs admin:write to change and admin:read to read; internal callers may not", async () => {
    expect((await h.reader.listApplications({})).applications.length).toBeGreaterThan(0);
    expect((await failure(h.reader.rotateClientSecret({ clientId: created[0]! }))).reason).toBe("INSUFFICIENT_SCOPE");
    expect((await failure(h.internalAdmin.listApplications({}))).reason).toBe("INSUFFICIENT_SCOPE");
  });
});
