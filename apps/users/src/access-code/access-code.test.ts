import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSOLE_CLIENT_ID } from "@gatehouse/rpc";
import {
  backends,
  caller,
  CLIENT_ID,
  ENTRYPOINTS,
  failure,
  loggedIn,
  startUsers,
  uniqueEmail,
  userObject,
  type Harness,
} from "../../test/harness.ts";
import { DEFAULT_LOGIN_LIMITS } from "../verifiers/throttle.ts";
import { DEFAULT_ACCESS_CODE_OPTIONS } from "./options.ts";

// Code sign-in (contract section 8): RequestAccessCode, then LoginUser with `code`.
describe.each(backends)("code sign-in on %s", (_name, open) => {
  let h: Harness;
  let users: Harness["users"];
  // Many logins of one account: the login throttle is not under test here.
  const loginLimits = { perAddressAccount: 1000, perAccount: 1000, perAddress: 1000, windowSeconds: 900 };

  beforeAll(async () => {
    h = await startUsers(open);
    users = await h.serve({ loginLimits });
  });
  afterAll(async () => {
    await h.close();
  });

  /** A user of the `open` entry point (email confirmed at once). */
  async function confirmedUser(ep = "open", extra = {}) {
    const email = uniqueEmail();
    const object = userObject(email, {
      datas: { name: { objectType: "data", value: "Ana" }, surname: { objectType: "data", value: "Pérez" } },
      ...extra,
    });
    const res = await users.registerUser({ caller: caller(ep), object });
    return { email, id: res.user!.id };
  }
  const ask = (email: string, ep = "open") =>
    users.requestAccessCode({ caller: caller(ep), key: "email", value: email });
  const codeLogin = (email: string, code: string, ep = "open", extra = {}) =>
    users.loginUser({ caller: caller(ep), email, code, ...extra });
  const wrong = (code: string) => (code === "111111" ? "222222" : "111111");

  it("answers the same for unknown and known values; the known user gets a 6-digit code, stored hashed, that signs in once", async () => {
    const unknown = await ask(uniqueEmail());
    const u = await confirmedUser();
    const known = await ask(u.email);
    expect(known).toEqual(unknown);
    expect(Number(known.expiresIn)).toBe(600);
    const { job, secrets } = await h.nextDelivery(u.email, "access_code");
    expect(job).toMatchObject({ channel: "email", userId: u.id, locale: "en" });
    expect(secrets.code).toMatch(/^\d{6}$/);
    const rows = await h.db.query<{ code_hash: string; expires_at: Date }>(
      "SELECT code_hash, expires_at FROM users.access_codes WHERE user_id = $1",
      [u.id],
    );
    expect(rows.rows[0]!.code_hash).not.toContain(secrets.code);
    expect(rows.rows[0]!.expires_at.getTime() - Date.now()).toBeGreaterThan(590_000);

    expect(loggedIn(await codeLogin(u.email, secrets.code)).user?.id).toBe(u.id);
    expect((await failure(codeLogin(u.email, secrets.code))).reason).toBe("INVALID_CREDENTIALS");
    // Unknown users fail with the same error.
    expect((await failure(codeLogin(uniqueEmail(), secrets.code))).reason).toBe("INVALID_CREDENTIALS");
  });

  it("five wrong codes kill it; an expired code does not sign in; an earlier code works until one is used", async () => {
    const u = await confirmedUser();
    await ask(u.email);
    const first = (await h.nextDelivery(u.email, "access_code")).secrets.code;
    for (let i = 0; i < 5; i++)
      expect((await failure(codeLogin(u.email, wrong(first)))).reason).toBe("INVALID_CREDENTIALS");
    expect((await failure(codeLogin(u.email, first))).reason).toBe("INVALID_CREDENTIALS");

    const before = h.jobs.length;
    await ask(u.email);
    const second = (await h.nextDelivery(u.email, "access_code", before)).secrets.code;
    await h.db.query("UPDATE users.access_codes SET expires_at = now() - interval '1 second' WHERE user_id = $1", [
      u.id,
    ]);
    expect((await failure(codeLogin(u.email, second))).reason).toBe("INVALID_CREDENTIALS");

    let mark = h.jobs.length;
    await ask(u.email);
    const a = (await h.nextDelivery(u.email, "access_code", mark)).secrets.code;
    mark = h.jobs.length;
    await ask(u.email);
    const b = (await h.nextDelivery(u.email, "access_code", mark)).secrets.code;
    expect(loggedIn(await codeLogin(u.email, a)).user?.id).toBe(u.id);
    if (a !== b) expect((await failure(codeLogin(u.email, b))).reason).toBe("INVALID_CREDENTIALS");
  });

  it("under the login throttle's default limits, five wrong codes and then the right one all fail as credentials (the code's tries show, not 429); a password then meets the limit", async () => {
    const tight = await h.serve({ loginLimits: DEFAULT_LOGIN_LIMITS });
    const u = await confirmedUser();
    const from = caller("open", { clientAddress: "203.0.113.7" });
    await tight.requestAccessCode({ caller: from, key: "email", value: u.email });
    const code = (await h.nextDelivery(u.email, "access_code")).secrets.code;
    for (let i = 0; i < 5; i++)
      expect((await failure(tight.loginUser({ caller: from, email: u.email, code: wrong(code) }))).reason).toBe(
        "INVALID_CREDENTIALS",
      );
    // The sixth guess is the right code, spent by the five before it.
    expect((await failure(tight.loginUser({ caller: from, email: u.email, code }))).reason).toBe("INVALID_CREDENTIALS");
    // The six failures count for this address and account: a password now is over its limit (5).
    expect(
      (await failure(tight.loginUser({ caller: from, email: u.email, password: "correct horse battery" }))).reason,
    ).toBe("RATE_LIMITED");
    // Another address is not held back, and a fresh code signs in.
    const other = caller("open", { clientAddress: "198.51.100.9" });
    const before = h.jobs.length;
    await tight.requestAccessCode({ caller: other, key: "email", value: u.email });
    const fresh = (await h.nextDelivery(u.email, "access_code", before)).secrets.code;
    expect(loggedIn(await tight.loginUser({ caller: other, email: u.email, code: fresh })).user?.id).toBe(u.id);
  });

  it("the console's entry point signs in with the password only: a code request and a code login are refused as bad input", async () => {
    const consoleEp = { ...ENTRYPOINTS.open!, id: CONSOLE_CLIENT_ID };
    const viaConsole = await h.serve({
      loginLimits,
      entrypoints: async (id) =>
        id === CONSOLE_CLIENT_ID ? { entrypoint: consoleEp, clientId: CLIENT_ID } : undefined,
    });
    const u = await confirmedUser();
    const at = caller("open", { entrypointId: CONSOLE_CLIENT_ID });
    const asked = await failure(viaConsole.requestAccessCode({ caller: at, key: "email", value: u.email }));
    expect(asked.reason).toBe("VALIDATION_FAILED");
    expect(asked.violations).toEqual([expect.objectContaining({ field: "ids.email", code: "not_allowed" })]);
    const login = await failure(viaConsole.loginUser({ caller: at, email: u.email, code: "123456" }));
    expect(login.reason).toBe("VALIDATION_FAILED");
    expect(login.violations).toEqual([expect.objectContaining({ field: "object.code", code: "not_allowed" })]);
    // The password still signs in there (the console then asks TOTP of operators).
    expect(
      loggedIn(await viaConsole.loginUser({ caller: at, email: u.email, password: "correct horse battery" })).user?.id,
    ).toBe(u.id);
  });

  it("limits the codes per identifier value, whether or not a user holds it, with the same answer", async () => {
    const limited = await h.serve({ loginLimits, accessCodes: { ...DEFAULT_ACCESS_CODE_OPTIONS, sendLimit: 2 } });
    const u = await confirmedUser();
    for (const email of [u.email, uniqueEmail()]) {
      for (let i = 0; i < 2; i++)
        await limited.requestAccessCode({ caller: caller("open"), key: "email", value: email });
      const over = await failure(
        limited.requestAccessCode({ caller: caller("open"), key: "email", value: email.toUpperCase() }),
      );
      expect(over.code).toBe(Code.ResourceExhausted);
      expect(over.reason).toBe("RATE_LIMITED");
      expect(Number(over.metadata.retry_after)).toBeGreaterThan(800);
    }
  });

  it("useForValidation: a missing or different value fails like a wrong code and spends a try; the right values sign in", async () => {
    const email = uniqueEmail();
    const object = userObject(email, {
      datas: { name: { objectType: "data", value: "Ana" }, birthday: { objectType: "data", value: "1990-04-01" } },
    });
    const { user } = await users.registerUser({ caller: caller("validated"), object });
    await ask(email, "validated");
    const code = (await h.nextDelivery(email, "access_code")).secrets.code;
    const data = (name: string, birthday?: string) => ({
      name: { objectType: "data", value: name },
      ...(birthday ? { birthday: { objectType: "data", value: birthday } } : {}),
    });
    expect((await failure(codeLogin(email, code, "validated"))).reason).toBe("INVALID_CREDENTIALS");
    expect((await failure(codeLogin(email, code, "validated", { datas: data("Ana") }))).reason).toBe(
      "INVALID_CREDENTIALS",
    );
    expect((await failure(codeLogin(email, code, "validated", { datas: data("Eva", "1990-04-01") }))).reason).toBe(
      "INVALID_CREDENTIALS",
    );
    const tries = await h.db.query<{ attempts: number }>("SELECT attempts FROM users.access_codes WHERE user_id = $1", [
      user!.id,
    ]);
    expect(tries.rows[0]!.attempts).toBe(3);
    // Case and surrounding spaces do not matter.
    expect(loggedIn(await codeLogin(email, code, "validated", { datas: data(" ana ", "1990-04-01") })).user?.id).toBe(
      user!.id,
    );
    // A key that is not a useForValidation field is the envelope's 400, before anything is checked.
    const bad = await failure(
      codeLogin(email, code, "validated", { datas: { surname: { objectType: "data", value: "P" } } }),
    );
    expect(bad.reason).toBe("VALIDATION_FAILED");
    expect(bad.violations).toEqual([expect.objectContaining({ field: "object.datas.surname", code: "not_allowed" })]);
  });

  it("refuses a password and a code together, datas with a password, and an email with a phone", async () => {
    const u = await confirmedUser();
    const both = await failure(
      users.loginUser({ caller: caller("open"), email: u.email, password: "x", code: "123456" }),
    );
    expect(both.violations).toEqual([expect.objectContaining({ field: "object.code", code: "not_allowed" })]);
    const datas = await failure(
      users.loginUser({ caller: caller("open"), email: u.email, password: "x", datas: { name: { value: "Ana" } } }),
    );
    expect(datas.violations).toEqual([expect.objectContaining({ field: "object.datas", code: "not_allowed" })]);
    const ids = await failure(
      users.loginUser({ caller: caller("open"), email: u.email, phoneNumber: "+34600000000", password: "x" }),
    );
    expect(ids.violations).toEqual([
      expect.objectContaining({ field: "object.ids.phone_number", code: "not_allowed" }),
    ]);
    const format = await failure(ask("not-an-email"));
    expect(format.violations).toEqual([expect.objectContaining({ field: "ids.email.value", code: "invalid_format" })]);
    const key = await failure(users.requestAccessCode({ caller: caller("open"), key: "national_id", value: "X1" }));
    expect(key.violations).toEqual([expect.objectContaining({ field: "ids.national_id", code: "not_allowed" })]);
  });

  it("passwordless: registration takes no password; the confirmation code signs in and confirms; later logins by code only", async () => {
    const email = uniqueEmail();
    const withPassword = await failure(users.registerUser({ caller: caller("nopass"), object: userObject(email) }));
    expect(withPassword.violations).toEqual([
      expect.objectContaining({ field: "object.password", code: "not_allowed" }),
    ]);
    const { password: _p, ...object } = userObject(email);
    const reg = await users.registerUser({ caller: caller("nopass"), object });
    expect(reg.session).toBeUndefined();
    const registration = h.lastDelivery(email).secrets.code;
    const done = loggedIn(await codeLogin(email, registration, "nopass"));
    expect(done.user?.ids.email?.confirmed).toBe(true);
    expect(
      (await failure(users.loginUser({ caller: caller("nopass"), email, password: "correct horse battery" }))).reason,
    ).toBe("INVALID_CREDENTIALS");
    await ask(email, "nopass");
    const later = (await h.nextDelivery(email, "access_code")).secrets.code;
    expect(loggedIn(await codeLogin(email, later, "nopass")).user?.id).toBe(reg.user!.id);
  });

  it("a main phone gets its code by SMS, also while unconfirmed: the code confirms it", async () => {
    const phone = `+3460${String(Date.now()).slice(-7)}`;
    await users.registerUser({
      caller: caller("mobile"),
      object: { objectType: "user", ids: { phone_number: { objectType: "user_id", value: phone } } },
    });
    await users.requestAccessCode({
      caller: caller("mobile"),
      key: "phone_number",
      value: phone.replace("+34", "+34 "),
    });
    const sms = await h.nextDelivery(phone, "access_code");
    expect(sms.job.channel).toBe("sms");
    const first = loggedIn(
      await users.loginUser({ caller: caller("mobile"), phoneNumber: phone, code: sms.secrets.code }),
    );
    expect(first.user?.ids.phone_number?.confirmed).toBe(true);
    // The registration's confirmation code died with the confirmation.
    const registration = h.jobs.find((j) => j.to === phone && j.purpose === "register")!;
    const code = h.secretsOf(registration).code;
    expect((await failure(users.loginUser({ caller: caller("mobile"), phoneNumber: phone, code }))).reason).toBe(
      "INVALID_CREDENTIALS",
    );
  });

  it("an account awaiting activation gets no code", async () => {
    const email = uniqueEmail();
    const { password: _p, ...object } = userObject(email);
    await users.registerUser({ caller: caller("assisted"), object });
    await users.requestAccessCode({ caller: caller("assisted"), key: "email", value: email });
    await new Promise((r) => setTimeout(r, 100));
    expect(h.jobs.filter((j) => j.to === email).map((j) => j.purpose)).toEqual(["activation"]);
  });
});
