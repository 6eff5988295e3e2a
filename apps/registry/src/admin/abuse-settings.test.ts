import { describe, expect, it } from "vitest";
import { auditRows, useAdminApplications } from "../../test/admin-applications.ts";
import { backends, failure, type Harness } from "../../test/harness.ts";

// Contract section 17's settings of an application: captcha, smsPerHour, phonePrefixes.
describe.each(backends)("section 17 application settings on %s", (_name, open) => {
  let h: Harness;
  const created = useAdminApplications(open, (harness) => (h = harness));

  it("default off, no own budget, any prefix; PATCH sets and clears them, audited; GetEntrypoint carries them", async () => {
    const id = created[2]!;
    const before = await h.reader.getApplicationRecord({ clientId: id });
    expect(before.application?.settings).toMatchObject({ captcha: "off", phonePrefixes: [] });
    expect(before.application?.settings?.smsPerHour).toBeUndefined();

    const res = await h.admin.updateApplication({
      clientId: id,
      captcha: "altcha",
      smsPerHour: { value: 50 },
      phonePrefixes: { values: ["+34", "+52"] },
    });
    expect(res.application?.settings).toMatchObject({
      captcha: "altcha",
      smsPerHour: 50,
      phonePrefixes: ["+34", "+52"],
    });
    const epId = res.application!.application!.entrypoints[0]!.id;
    expect(await h.internal.getEntrypoint({ entrypointId: epId })).toMatchObject({
      captcha: "altcha",
      smsPerHour: 50,
      phonePrefixes: ["+34", "+52"],
    });
    expect((await auditRows(h, id)).at(-1)?.details).toEqual({
      changed: ["captcha", "smsPerHour", "phonePrefixes"],
      captcha: "altcha",
      smsPerHour: 50,
      phonePrefixes: ["+34", "+52"],
    });
    expect(h.notices).toContainEqual(["application", id]);

    // An SmsBudget without a value clears the budget; the others stay.
    const cleared = await h.admin.updateApplication({ clientId: id, smsPerHour: {} });
    expect(cleared.application?.settings?.smsPerHour).toBeUndefined();
    expect(cleared.application?.settings?.captcha).toBe("altcha");
  });

  it("400 naming each wrong value; nothing changes", async () => {
    const id = created[1]!;
    const err = await failure(
      h.admin.updateApplication({
        clientId: id,
        captcha: "recaptcha",
        smsPerHour: { value: -1 },
        phonePrefixes: { values: ["34", "+34", "+34", "+0"] },
      }),
    );
    expect(err.reason).toBe("VALIDATION_FAILED");
    expect(err.violations.map((v) => `${v.field}:${v.code}`).sort()).toEqual([
      "captcha:invalid_value",
      "phonePrefixes.0:invalid_format",
      "phonePrefixes.2:duplicate",
      "phonePrefixes.3:invalid_format",
      "smsPerHour:invalid_value",
    ]);
    expect((await h.reader.getApplicationRecord({ clientId: id })).application?.settings?.captcha).toBe("off");
  });
});
