import type { JsonObject } from "@bufbuild/protobuf";
import { UpdateMode } from "@gatehouse/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  backends,
  caller,
  CLIENT_ID,
  ENTRYPOINTS,
  failure,
  startUsers,
  uniqueEmail,
  userObject,
  type Harness,
} from "../../test/harness.ts";
import type { ResolvedEntrypoint } from "../ports.ts";

// Contract section 17's SMS limits through the users service; each case uses its own calling code.
let serial = 0;
const phoneIn = (code: string) => `${code}6${String(Date.now() * 100 + serial++).slice(-8)}`;
const phoneUser = (phone: string): JsonObject => ({
  objectType: "user",
  ids: { phone_number: { objectType: "user_id", value: phone } },
});

describe.each(backends)("SMS limits on %s", (_name, open) => {
  let h: Harness;
  let users: Harness["users"];
  beforeAll(async () => {
    h = await startUsers(open);
    users = await h.serve({ smsLimits: { perHour: 1000, perPrefixPerHour: 2 } });
  });
  afterAll(async () => {
    await h.close();
  });

  /** The same service over entry points whose application has these section 17 settings. */
  const withSettings = (settings: Partial<ResolvedEntrypoint>) =>
    h.serve({
      smsLimits: { perHour: 1000, perPrefixPerHour: 1000 },
      entrypoints: async (id) => {
        const ep = Object.values(ENTRYPOINTS).find((e) => e.id === id);
        return ep ? { entrypoint: ep, clientId: CLIENT_ID, ...settings } : undefined;
      },
    });

  const refusals = async () =>
    (
      await h.db.query<{ actor: string; details: Record<string, unknown> }>(
        "SELECT actor, details FROM users.audit_log WHERE action = 'sms.refused' ORDER BY id",
      )
    ).rows;

  it("a registration by phone beyond the calling code's budget: 429 SMS_LIMIT, nothing created, audited; email goes on", async () => {
    const before = (await refusals()).length;
    for (let i = 0; i < 2; i++)
      await users.registerUser({ caller: caller("mobile"), object: phoneUser(phoneIn("+30")) });
    const phone = phoneIn("+30");
    const err = await failure(users.registerUser({ caller: caller("mobile"), object: phoneUser(phone) }));
    expect(err.reason).toBe("SMS_LIMIT");
    expect(err.metadata.limit).toBe("prefix");
    expect(h.jobs.some((j) => j.to === phone)).toBe(false);
    const held = await h.db.query("SELECT 1 FROM users.identifiers WHERE value = $1", [phone]);
    expect(held.rows).toHaveLength(0);
    await expect.poll(async () => (await refusals()).length).toBe(before + 1);
    const audited = (await refusals()).slice(before);
    expect(audited).toEqual([{ actor: `client:${CLIENT_ID}`, details: { limit: "prefix", prefix: "+30" } }]);
    // Emails are not counted.
    for (let i = 0; i < 3; i++) await users.registerUser({ caller: caller(), object: userObject(uniqueEmail()) });
  });

  it("a code request answers 429 SMS_LIMIT before any look-up: for a known and an unknown number alike", async () => {
    const phone = phoneIn("+31");
    await users.registerUser({ caller: caller("mobile"), object: phoneUser(phone) });
    await users.requestAccessCode({ caller: caller("mobile"), key: "phone_number", value: phone });
    await h.nextDelivery(phone, "access_code");
    for (const value of [phone, phoneIn("+31")]) {
      const err = await failure(users.requestAccessCode({ caller: caller("mobile"), key: "phone_number", value }));
      expect(err.reason).toBe("SMS_LIMIT");
    }
  });

  it("a patch whose confirmation code is refused by the SMS limits answers 502, naming the phone", async () => {
    const reg = await users.registerUser({ caller: caller("mobile"), object: phoneUser(phoneIn("+32")) });
    const userId = reg.user!.id;
    const patch = (phone: string) =>
      users.updateUser({
        caller: caller("mobile"),
        mode: UpdateMode.PATCH,
        actorUserId: userId,
        targetUserId: userId,
        object: phoneUser(phone),
      });
    await patch(phoneIn("+32"));
    const err = await failure(patch(phoneIn("+32")));
    expect(err.reason).toBe("CONFIRMATION_NOT_QUEUED");
    expect(err.violations.map((v) => `${v.field}:${v.code}`)).toEqual(["object.ids.phone_number.value:sms_limit"]);
  });

  it("an application's own budget (smsPerHour) refuses its messages; 0 sends none", async () => {
    const none = await withSettings({ smsPerHour: 0 });
    const err = await failure(none.registerUser({ caller: caller("mobile"), object: phoneUser(phoneIn("+33")) }));
    expect(err.reason).toBe("SMS_LIMIT");
    expect(err.metadata.limit).toBe("application");
  });

  it("phonePrefixes: another calling code is 400 at registration and 416 at patch, naming the field", async () => {
    const spain = await withSettings({ phonePrefixes: ["+34", "+52"] });
    const reg = await failure(spain.registerUser({ caller: caller("mobile"), object: phoneUser(phoneIn("+351")) }));
    expect(reg.reason).toBe("VALIDATION_FAILED");
    expect(reg.violations.map((v) => `${v.field}:${v.code}`)).toEqual(["object.ids.phone_number.value:invalid_value"]);
    const ok = await spain.registerUser({ caller: caller("mobile"), object: phoneUser(phoneIn("+52")) });
    const userId = ok.user!.id;
    const err = await failure(
      spain.updateUser({
        caller: caller("mobile"),
        mode: UpdateMode.PATCH,
        actorUserId: userId,
        targetUserId: userId,
        object: phoneUser(phoneIn("+44")),
      }),
    );
    expect(err.reason).toBe("CONSTRAINT_VIOLATION");
    expect(err.violations.map((v) => `${v.field}:${v.code}`)).toEqual(["object.ids.phone_number.value:invalid_value"]);
  });

  it("phonePrefixes: a sign-in code asked for another calling code is 400 naming the field, whoever holds it", async () => {
    const anywhere = await withSettings({});
    const phone = phoneIn("+44");
    await anywhere.registerUser({ caller: caller("mobile"), object: phoneUser(phone) });
    const spain = await withSettings({ phonePrefixes: ["+34", "+52"] });
    for (const value of [phone, phoneIn("+44")]) {
      const err = await failure(spain.requestAccessCode({ caller: caller("mobile"), key: "phone_number", value }));
      expect(err.reason).toBe("VALIDATION_FAILED");
      expect(err.violations.map((v) => `${v.field}:${v.code}`)).toEqual(["ids.phone_number.value:invalid_value"]);
    }
    const inside = await spain.requestAccessCode({
      caller: caller("mobile"),
      key: "phone_number",
      value: phoneIn("+34"),
    });
    expect(inside.expiresIn).toBeGreaterThan(0n);
  });
});
