import { create, type JsonObject } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthorizationRequestSchema } from "@gatehouse/proto";
import {
  backends,
  caller,
  catalogAssertion,
  CLIENT_ID,
  failure,
  outcomeOf,
  startUsers,
  uniqueEmail,
  userObject,
  type Harness,
} from "../../test/harness.ts";

// Hosted flows between pages (contract section 8): a flow token, bound to the
// user, the entry point and the authorization request, continues the login
// (ContinueLogin) with what each page sent, to a code issued once.
describe.each(backends)("hosted flows on %s", (_name, open) => {
  let h: Harness;
  let users: Harness["users"];
  beforeAll(async () => {
    h = await startUsers(open);
    users = await h.serve({
      loginLimits: { perAddressAccount: 1000, perAccount: 1000, perAddress: 1000, windowSeconds: 900 },
    });
  });
  afterAll(async () => {
    await h.close();
  });

  const authorization = (challenge = "c".repeat(43)) =>
    create(AuthorizationRequestSchema, {
      clientId: CLIENT_ID,
      redirectUri: "https://shop.example.com/cb",
      scope: "openid",
      codeChallenge: challenge,
      nonce: "n1",
    });
  const next = (
    ep: string,
    flowToken: string,
    extra: { confirmationCode?: string; resendCode?: boolean; datas?: JsonObject; assertions?: JsonObject } = {},
  ) => users.continueLogin({ caller: caller(ep), flowToken, authorizationRequest: authorization(), ...extra });

  it("two-step registration: step 1 registers, step 2 saves like a patch, the code page confirms, then the code, once", async () => {
    const email = uniqueEmail();
    const { password: _p, ...object } = userObject(email);
    // Step 1 needs only step 1's mandatory data (the birthday is step 2's).
    const reg = await users.registerUser({
      caller: caller("twostep"),
      object: { ...object, password: "correct horse battery" },
      authorizationRequest: authorization(),
      step: 1,
    });
    expect(reg.session).toBeUndefined();
    expect(reg.flowToken).toBeTruthy();
    const sent = h.jobs.length;

    const bad = await failure(
      next("twostep", reg.flowToken, { datas: { birthday: { objectType: "data", value: "1990-02-31" } } }),
    );
    expect(bad.violations).toEqual([
      expect.objectContaining({ field: "object.datas.birthday.value", code: "invalid_format" }),
    ]);
    const confirm = outcomeOf(
      await next("twostep", reg.flowToken, { datas: { birthday: { objectType: "data", value: "1990-02-03" } } }),
      "confirmationRequired",
    );
    expect(confirm).toMatchObject({ keys: ["email"], activationRequired: false });
    // The registration has just sent a code: no other is sent.
    expect(h.jobs).toHaveLength(sent);
    expect((await users.getUser({ userId: reg.user!.id })).user?.datas.birthday?.value?.kind).toMatchObject({
      value: "1990-02-03",
    });

    const code = h.lastDelivery(email).secrets.code;
    const wrong = await failure(
      next("twostep", confirm.flowToken, { confirmationCode: code === "111111" ? "222222" : "111111" }),
    );
    expect(wrong.reason).toBe("INVALID_CODE");
    expect(wrong.metadata.attempts_left).toBe("4");
    const resent = outcomeOf(await next("twostep", confirm.flowToken, { resendCode: true }), "confirmationRequired");
    expect(h.jobs.at(-1)).toMatchObject({ to: email, purpose: "resend" });
    const done = outcomeOf(await next("twostep", resent.flowToken, { confirmationCode: code }), "authorizationCode");
    expect(done.code).toMatch(new RegExp(`-for-${reg.user!.id}$`));
    // Finished: no token of the flow gives another code.
    for (const token of [reg.flowToken, confirm.flowToken, resent.flowToken]) {
      expect((await failure(next("twostep", token))).reason).toBe("LOGIN_FLOW_INVALID");
    }
  });

  it("a flow token works only for its authorization request, application and entry point, unaltered", async () => {
    const email = uniqueEmail();
    const reg = await users.registerUser({
      caller: caller("twostep"),
      object: userObject(email),
      authorizationRequest: authorization(),
      step: 1,
    });
    const attempts = [
      users.continueLogin({
        caller: caller("twostep"),
        flowToken: reg.flowToken,
        authorizationRequest: authorization("d".repeat(43)),
      }),
      users.continueLogin({ caller: caller("twostep"), flowToken: reg.flowToken }),
      users.continueLogin({ caller: caller("web"), flowToken: reg.flowToken, authorizationRequest: authorization() }),
      next("twostep", reg.flowToken.slice(0, -3) + "AAA"),
      next("twostep", "v1.a.b.c"),
    ];
    for (const attempt of attempts) expect((await failure(attempt)).reason).toBe("LOGIN_FLOW_INVALID");
    const foreign = await failure(
      users.continueLogin({
        caller: caller("twostep", { clientId: "100000000002" }),
        flowToken: reg.flowToken,
        authorizationRequest: authorization(),
      }),
    );
    expect(foreign.reason).toBe("PERMISSION_DENIED");
  });

  it("a hosted login stopped by terms (451) continues with the answers; by missing data (206) with the data", async () => {
    h.catalog.push(catalogAssertion("flow-terms", { mandatory: true }));
    try {
      const email = uniqueEmail();
      await users.registerUser({
        caller: caller("open"),
        object: userObject(email, { datas: { surname: { objectType: "data", value: "P" } } }),
      });
      const login = () =>
        users.loginUser({
          caller: caller("profile"),
          email,
          password: "correct horse battery",
          fca: true,
          authorizationRequest: authorization(),
        });
      const terms = outcomeOf(await login(), "termsRequired");
      expect(terms.flowToken).toBeTruthy();
      const declined = outcomeOf(
        await next("profile", terms.flowToken, {
          assertions: { "flow-terms": { objectType: "assertion", value: false } },
        }),
        "termsRequired",
      );
      const profile = outcomeOf(
        await next("profile", declined.flowToken, {
          assertions: { "flow-terms": { objectType: "assertion", value: true } },
        }),
        "profileRequired",
      );
      expect(profile.missingFields).toEqual(["name", "birthday"]);
      const still = outcomeOf(
        await next("profile", profile.flowToken, { datas: { name: { objectType: "data", value: "Ana" } } }),
        "profileRequired",
      );
      expect(still.missingFields).toEqual(["birthday"]);
      outcomeOf(
        await next("profile", still.flowToken, { datas: { birthday: { objectType: "data", value: "1991-01-01" } } }),
        "authorizationCode",
      );
      const stored = await h.db.query<{ via: string; value: boolean }>(
        "SELECT a.via, a.value FROM users.assertion_acceptances a JOIN users.identifiers i ON i.user_id = a.user_id WHERE i.value = $1 ORDER BY a.id",
        [email],
      );
      expect(stored.rows).toEqual([
        { via: "page", value: false },
        { via: "page", value: true },
      ]);
    } finally {
      h.catalog.splice(
        h.catalog.findIndex((a) => a.key === "flow-terms"),
        1,
      );
    }
  });

  it("a hosted login of an unconfirmed user: the 412 carries a flow token; its code continues the same login", async () => {
    const email = uniqueEmail();
    const reg = await users.registerUser({ caller: caller("web"), object: userObject(email) });
    const blocked = outcomeOf(
      await users.loginUser({
        caller: caller("web"),
        email,
        password: "correct horse battery",
        authorizationRequest: authorization(),
      }),
      "confirmationRequired",
    );
    expect(blocked.flowToken).toBeTruthy();
    const code = h.lastDelivery(email).secrets.code;
    const done = outcomeOf(await next("web", blocked.flowToken, { confirmationCode: code }), "authorizationCode");
    expect(done.code).toMatch(new RegExp(`-for-${reg.user!.id}$`));
    // A JSON login's 412 has none.
    const other = uniqueEmail();
    await users.registerUser({ caller: caller("web"), object: userObject(other) });
    const json = outcomeOf(
      await users.loginUser({ caller: caller("web"), email: other, password: "correct horse battery" }),
      "confirmationRequired",
    );
    expect(json.flowToken).toBe("");
  });
});
