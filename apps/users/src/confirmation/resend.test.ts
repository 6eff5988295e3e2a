import { randomBytes } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { FieldConfigSchema } from "@gatehouse/proto";
import { KeyRing } from "@gatehouse/secrets";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  backends,
  caller,
  CLIENT_ID,
  entrypoint,
  ENTRYPOINTS,
  failure,
  startUsers,
  uniqueEmail,
  userObject,
  type Harness,
  loggedIn,
  outcomeOf,
} from "../../test/harness.ts";
import { DEFAULT_CONFIRMATION_OPTIONS } from "./options.ts";
import { openResendToken, sealResendToken } from "./resend-token.ts";

const PASSWORD = "correct horse battery";
// Many logins of one account in these tests: the login throttle is not under test here.
const loginLimits = { perAddressAccount: 1000, perAccount: 1000, perAddress: 1000, windowSeconds: 900 };

// Phone is the main id and needs confirmation; email does not: a 412 resends by SMS.
const phoneMain = entrypoint("phone", {
  fields: [
    create(FieldConfigSchema, {
      objectType: "fieldConfig",
      type: "id",
      key: "phone_number",
      main: true,
      mandatory: true,
      requiresConfirmation: true,
    }),
    create(FieldConfigSchema, {
      objectType: "fieldConfig",
      type: "id",
      key: "email",
      main: false,
      mandatory: true,
      requiresConfirmation: false,
    }),
    create(FieldConfigSchema, { objectType: "fieldConfig", type: "field", key: "name", mandatory: false }),
  ],
});

describe.each(backends)("resending confirmation codes on %s", (_name, open) => {
  let h: Harness;
  let users: Harness["users"];
  beforeAll(async () => {
    h = await startUsers(open);
    users = await h.serve({ loginLimits });
  });
  afterAll(async () => {
    await h.close();
  });

  async function registered() {
    const email = uniqueEmail();
    const res = await users.registerUser({ caller: caller("web"), object: userObject(email) });
    return { email, userId: res.user!.id, first: h.lastDelivery(email).secrets };
  }
  const deliveriesTo = (to: string) => h.jobs.filter((j) => j.to === to);
  /** A login of an unconfirmed user: its ConfirmationRequired (412). */
  const unconfirmedLogin = async (email: string, client = users) =>
    outcomeOf(await client.loginUser({ caller: caller("web"), email, password: PASSWORD }), "confirmationRequired");

  it("a 412 login resends a code (purpose resend) and carries a resend token for that user and key", async () => {
    const { email, userId } = await registered();
    const err = await unconfirmedLogin(email);
    expect(err).toMatchObject({ key: "email", keys: ["email"], resendLimited: false });
    expect(openResendToken(h.keys, err.resendToken)).toEqual({
      userId,
      key: "email",
      entrypointId: `${CLIENT_ID}_web`,
    });
    const sent = deliveriesTo(email);
    expect(sent.map((j) => j.purpose)).toEqual(["register", "resend"]);
    expect(sent[1]).toMatchObject({ channel: "email", userId, locale: "en" });
    // A wrong password resends nothing.
    await failure(users.loginUser({ caller: caller("web"), email, password: "wrong password" }));
    expect(deliveriesTo(email)).toHaveLength(2);
  });

  it("a resend does not supersede: the first code, or the first link, still confirms after two resends", async () => {
    const a = await registered();
    const token = (await unconfirmedLogin(a.email)).resendToken;
    await users.resendConfirmation({ caller: caller("web", { locale: "es" }), resendToken: token });
    expect(deliveriesTo(a.email).map((j) => [j.purpose, j.locale])).toEqual([
      ["register", "en"],
      ["resend", "en"],
      ["resend", "es"],
    ]);
    const res = await users.confirmIdentifier({ userId: a.userId, key: "email", code: a.first.code });
    expect(res.user?.ids.email).toMatchObject({ value: a.email, confirmed: true });
    expect(
      loggedIn(await users.loginUser({ caller: caller("web"), email: a.email, password: PASSWORD })).user?.id,
    ).toBe(a.userId);

    const b = await registered();
    await unconfirmedLogin(b.email);
    expect((await users.confirmIdentifier({ linkToken: b.first.linkToken })).user?.ids.email?.confirmed).toBe(true);
  });

  it("the latest code confirms too; once one code is used the others of that value are dead", async () => {
    const { email, userId, first } = await registered();
    await unconfirmedLogin(email);
    const latest = h.lastDelivery(email).secrets;
    await users.confirmIdentifier({ userId, key: "email", code: latest.code });
    expect((await failure(users.confirmIdentifier({ userId, key: "email", code: first.code }))).reason).toBe(
      "INVALID_CODE",
    );
    expect((await failure(users.confirmIdentifier({ linkToken: first.linkToken }))).reason).toBe("INVALID_CODE");
  });

  it("five wrong tries kill every live code of the identifier, however many were sent", async () => {
    const { email, userId, first } = await registered();
    await unconfirmedLogin(email);
    const second = h.lastDelivery(email).secrets;
    const wrong = ["111111", "222222", "333333"].find((c) => c !== first.code && c !== second.code)!;
    const left: string[] = [];
    for (let i = 0; i < 5; i++)
      left.push(
        (await failure(users.confirmIdentifier({ userId, key: "email", code: wrong }))).metadata.attempts_left ?? "",
      );
    expect(left).toEqual(["4", "3", "2", "1", "0"]);
    for (const code of [first.code, second.code]) {
      expect((await failure(users.confirmIdentifier({ userId, key: "email", code }))).reason).toBe("INVALID_CODE");
    }
  });

  it("16 parallel uses of the first and the resent code: exactly one success", async () => {
    const { email, userId, first } = await registered();
    await unconfirmedLogin(email);
    const second = h.lastDelivery(email).secrets;
    const results = await Promise.allSettled(
      Array.from({ length: 16 }, (_, i) =>
        users.confirmIdentifier({ userId, key: "email", code: i % 2 ? first.code : second.code }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  });

  it("the limit: after `resendLimit` resends a login 412 has subcode 429 and the resend RPC is RATE_LIMITED; nothing more is sent", async () => {
    const limited = await h.serve({ loginLimits, confirmation: { ...DEFAULT_CONFIRMATION_OPTIONS, resendLimit: 2 } });
    const { email, userId } = await registered();
    const tokens: string[] = [];
    for (let i = 0; i < 2; i++) {
      const err = await unconfirmedLogin(email, limited);
      expect(err.resendLimited).toBe(false);
      tokens.push(err.resendToken);
    }
    const over = await unconfirmedLogin(email, limited);
    expect(over.resendLimited).toBe(true);
    expect(Number(over.retryAfterSeconds)).toBeGreaterThan(3500);
    expect(Number(over.retryAfterSeconds)).toBeLessThanOrEqual(3600);
    expect(openResendToken(h.keys, over.resendToken)).toMatchObject({ userId, key: "email" });
    const rpc = await failure(limited.resendConfirmation({ caller: caller("web"), resendToken: tokens[0]! }));
    expect(rpc.code).toBe(Code.ResourceExhausted);
    expect(rpc.reason).toBe("RATE_LIMITED");
    expect(Number(rpc.metadata.retry_after)).toBeGreaterThan(0);
    expect(deliveriesTo(email).map((j) => j.purpose)).toEqual(["register", "resend", "resend"]);
  });

  it("16 parallel logins of an unconfirmed user send exactly the limit (3) and tell the rest subcode 429", async () => {
    const { email } = await registered();
    const results = await Promise.all(Array.from({ length: 16 }, () => unconfirmedLogin(email)));
    expect(results.filter((r) => r.resendLimited)).toHaveLength(13);
    expect(deliveriesTo(email).filter((j) => j.purpose === "resend")).toHaveLength(3);
  });

  it("nothing is sent for a confirmed identifier, with the same answer; bad and expired tokens are INVALID_CODE", async () => {
    const { email, userId, first } = await registered();
    const token = (await unconfirmedLogin(email)).resendToken;
    await users.confirmIdentifier({ linkToken: first.linkToken });
    const before = deliveriesTo(email).length;
    expect(await users.resendConfirmation({ caller: caller("web"), resendToken: token })).toBeDefined();
    expect(await users.resendConfirmation({ caller: caller("web"), userId, key: "email" })).toBeDefined();
    expect(deliveriesTo(email)).toHaveLength(before);

    const expired = sealResendToken(h.keys, DEFAULT_CONFIRMATION_OPTIONS, userId, "email", "", Date.now() - 3601_000);
    const foreign = sealResendToken(new KeyRing(randomBytes(32)), DEFAULT_CONFIRMATION_OPTIONS, userId, "email");
    for (const resendToken of [expired, foreign, "v1.x.y.z", token.slice(0, -2)]) {
      const err = await failure(users.resendConfirmation({ caller: caller("web"), resendToken }));
      expect(err.code).toBe(Code.InvalidArgument);
      expect(err.reason).toBe("INVALID_CODE");
    }
    expect((await failure(users.resendConfirmation({ caller: caller("web"), userId }))).reason).toBe(
      "VALIDATION_FAILED",
    );
  });

  it("a resend of a pending change goes to the new value, keeps its context.url and the change's own link", async () => {
    const { email, userId, first } = await registered();
    await users.confirmIdentifier({ userId, key: "email", code: first.code });
    const next = uniqueEmail();
    await h.db.query(
      "UPDATE users.identifiers SET pending_value = $3, pending_requested_at = now() WHERE user_id = $1 AND key = $2",
      [userId, "email", next],
    );
    await h.db.query(
      `INSERT INTO users.confirmations (id, user_id, key, value, purpose, code_hash, link_token_hash, context_url, expires_at)
       VALUES ($1, $2, 'email', $3, 'change', 'x', $4, 'https://shop.example.com/done', now() + interval '1 hour')`,
      [randomBytes(16).toString("hex"), userId, next, randomBytes(16).toString("hex")],
    );
    await users.resendConfirmation({ caller: caller("web"), userId, key: "email" });
    const resent = h.lastDelivery(next);
    expect(resent.job.purpose).toBe("resend");
    const res = await users.confirmIdentifier({ linkToken: resent.secrets.linkToken });
    expect(res.redirectUrl).toBe("https://shop.example.com/done");
    expect(res.user?.ids.email).toMatchObject({ value: next, confirmed: true });
    expect(deliveriesTo(email).filter((j) => j.purpose === "resend")).toHaveLength(0);
  });

  it("a queue failure: the resend RPC is CONFIRMATION_NOT_QUEUED and gives its count back; a login is still 412", async () => {
    const limited = await h.serve({ loginLimits, confirmation: { ...DEFAULT_CONFIRMATION_OPTIONS, resendLimit: 1 } });
    const { email, userId } = await registered();
    h.failEnqueue = true;
    try {
      const err = await failure(limited.resendConfirmation({ caller: caller("web"), userId, key: "email" }));
      expect(err.code).toBe(Code.Unavailable);
      expect(err.reason).toBe("CONFIRMATION_NOT_QUEUED");
      const login = await unconfirmedLogin(email, limited);
      expect(login.resendToken).toBeTruthy();
      expect(login.resendLimited).toBe(false);
    } finally {
      h.failEnqueue = false;
    }
    const rows = await h.db.query("SELECT 1 FROM users.confirmations WHERE user_id = $1 AND purpose = 'resend'", [
      userId,
    ]);
    expect(rows.rowCount).toBe(0);
    await limited.resendConfirmation({ caller: caller("web"), userId, key: "email" });
    expect(deliveriesTo(email).map((j) => j.purpose)).toEqual(["register", "resend"]);
  });

  it("when the email is not among the unconfirmed ids, the first one is resent (SMS for a main phone)", async () => {
    const phoneUsers = await h.serve({
      loginLimits,
      entrypoints: async (id) =>
        id === phoneMain.id
          ? { entrypoint: phoneMain, clientId: CLIENT_ID }
          : { entrypoint: ENTRYPOINTS.web!, clientId: CLIENT_ID },
    });
    const email = uniqueEmail();
    const phone = `+3460${String(Date.now()).slice(-7)}`;
    const object = userObject(email, {
      ids: { email: { objectType: "user_id", value: email }, phone_number: { objectType: "user_id", value: phone } },
    });
    await phoneUsers.registerUser({ caller: caller("phone"), object });
    const err = outcomeOf(
      await phoneUsers.loginUser({ caller: caller("phone"), email, password: PASSWORD }),
      "confirmationRequired",
    );
    expect(err).toMatchObject({ key: "phone_number", keys: ["phone_number"] });
    expect(deliveriesTo(phone).map((j) => [j.purpose, j.channel])).toEqual([
      ["register", "sms"],
      ["resend", "sms"],
    ]);
    expect(deliveriesTo(email)).toHaveLength(0);
  });
});
