import { Code } from "@connectrpc/connect";
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
import { settingsViolations } from "./validate/settings.ts";

describe("settingsViolations", () => {
  it("accepts https URLs and http on loopback only, without fragments, at most 50, no duplicates", () => {
    expect(
      settingsViolations({
        whitelist: ["https://a.example.com/cb?x=1", "http://localhost:8080/cb", "http://127.0.0.1/cb"],
        mfa: "required",
      }),
    ).toEqual([]);
    const codes = settingsViolations({
      whitelist: [
        "http://a.example.com/cb",
        "https://a.example.com/#x",
        "relative/path",
        "https://u:p@a.example.com/",
        "https://b.example.com/",
        "https://b.example.com/",
      ],
      defaultCallback: "ftp://a.example.com/",
      mfa: "always",
    }).map((v) => `${v.field}:${v.code}`);
    expect(codes).toEqual([
      "whitelist.0:invalid_value",
      "whitelist.1:invalid_format",
      "whitelist.2:invalid_format",
      "whitelist.3:invalid_format",
      "whitelist.5:duplicate",
      "defaultCallback:invalid_value",
      "mfa:invalid_value",
    ]);
    expect(
      settingsViolations({ whitelist: Array.from({ length: 51 }, (_, i) => `https://a.example.com/${i}`) })[0],
    ).toMatchObject({ field: "whitelist", code: "too_many" });
    expect(settingsViolations({ defaultCallback: "" })).toEqual([]);
  });
});

describe.each(backends)("UpdateApplicationSettings on %s", (_name, open) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startRegistry(open);
  });
  afterAll(async () => {
    await h.close();
  });

  it("changes only what is set, shows in GetEntrypoint, and is audited", async () => {
    const app = (await h.operator.createApplication({ application: application(validApplicationJson()) })).application!;
    const before = await h.internal.getEntrypoint({ entrypointId: app.entrypoints[0]!.id });
    expect(before.mfa).toBe("off");
    expect(before.whitelist).toEqual(app.redirectUris);

    const res = await h.operator.updateApplicationSettings({
      clientId: app.id,
      mfa: "required",
      defaultCallback: "https://a.example.com/welcome",
    });
    expect(res.settings).toMatchObject({
      whitelist: app.redirectUris,
      defaultCallback: "https://a.example.com/welcome",
      mfa: "required",
    });
    const wl = await h.operator.updateApplicationSettings({ clientId: app.id, whitelist: { values: [] } });
    expect(wl.settings).toMatchObject({
      whitelist: [],
      defaultCallback: "https://a.example.com/welcome",
      mfa: "required",
    });
    const cleared = await h.operator.updateApplicationSettings({ clientId: app.id, defaultCallback: "" });
    expect(cleared.settings?.defaultCallback).toBe("");

    const ep = await h.internal.getEntrypoint({ entrypointId: app.entrypoints[0]!.id });
    expect(ep).toMatchObject({ mfa: "required", whitelist: [], defaultCallback: "" });
    const audit = await h.db.query<{ actor: string; details: Record<string, unknown> }>(
      "SELECT actor, details FROM registry.audit_log WHERE target = $1 AND action = 'application.update' ORDER BY id",
      [app.id],
    );
    expect(audit.rows.map((r) => r.actor)).toEqual([OPERATOR_ACTOR, OPERATOR_ACTOR, OPERATOR_ACTOR]);
    expect(audit.rows[0]!.details).toEqual({
      changed: ["defaultCallback", "mfa"],
      mfa: "required",
      defaultCallback: "https://a.example.com/welcome",
    });
  });

  it("400 with a violation per field, 404 for an unknown application, admin scope only", async () => {
    const app = (await h.operator.createApplication({ application: application(validApplicationJson()) })).application!;
    const bad = await failure(
      h.operator.updateApplicationSettings({
        clientId: app.id,
        mfa: "maybe",
        whitelist: { values: ["http://x.example.com/"] },
      }),
    );
    expect(bad.reason).toBe("VALIDATION_FAILED");
    expect(bad.violations.map((v) => v.field)).toEqual(["whitelist.0", "mfa"]);
    expect((await failure(h.operator.updateApplicationSettings({ clientId: "999999999999", mfa: "off" }))).reason).toBe(
      "APPLICATION_NOT_FOUND",
    );
    expect((await failure(h.internal.updateApplicationSettings({ clientId: app.id, mfa: "off" }))).code).toBe(
      Code.PermissionDenied,
    );
    expect((await failure(h.anonymous.updateApplicationSettings({ clientId: app.id, mfa: "off" }))).code).toBe(
      Code.Unauthenticated,
    );
  });
});
