import { create } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConfirmationJob } from "@gatehouse/jobs";
import { createLogger } from "@gatehouse/logging";
import { totpSteps } from "@gatehouse/testing";
import { AuthorizationRequestSchema, type Caller, type PendingAssertion } from "@gatehouse/proto";
import {
  backends,
  caller,
  catalogAssertion,
  CLIENT_ID,
  ENTRYPOINTS,
  failure,
  fakeGrants,
  outcomeOf,
  startUsers,
  uniqueEmail,
  userObject,
  type FakeGrants,
  type Harness,
} from "../../test/harness.ts";
import { confirmTotp, enrollTotp } from "../mfa/enrolment.ts";
import { totpCode } from "../verifiers/totp/totp.ts";
import type { ResolvedEntrypoint } from "../ports.ts";
import { composeUsers, type UsersParts } from "../compose.ts";
import type { LoginFlow } from "./flow.ts";

const PASSWORD = "correct horse battery";
const OTHER_APP_ENTRYPOINT = "100000000002_web";
const STEP = 30_000;

// The login flow on its own, over the real stores, with in-memory fakes of
// its ports: the registry's entry points (counting look-ups) and catalog,
// the auth service's grants, the delivery queue.
describe.each(backends)("the login flow on %s", (_name, open) => {
  let h: Harness;
  let flow: LoginFlow;
  /** TOTP enrolment over the same stores, to turn a user's MFA on. */
  let factor: UsersParts["factor"];
  let grants: FakeGrants;
  const lookups: string[] = [];
  const jobs: ConfirmationJob[] = [];
  const catalog: PendingAssertion[] = [];
  /** The MFA policy of the application, as the registry would answer it. */
  let mfaPolicy = "off";

  beforeAll(async () => {
    h = await startUsers(open);
    grants = fakeGrants();
    ({ flow, factor } = composeUsers({
      db: h.db,
      kv: h.kv,
      keys: h.keys,
      logger: createLogger("flow-test", "silent"),
      entrypoints: async (id): Promise<ResolvedEntrypoint | undefined> => {
        lookups.push(id);
        const ep = Object.values(ENTRYPOINTS).find((e) => e.id === id);
        if (ep) return { entrypoint: ep, clientId: CLIENT_ID, mfa: mfaPolicy };
        // An entry point of another application.
        return id === OTHER_APP_ENTRYPOINT ? { entrypoint: ENTRYPOINTS.web!, clientId: "100000000002" } : undefined;
      },
      assertions: async (typologies) => catalog.filter((a) => typologies.includes(a.typology)),
      grants,
      enqueue: async (job) => void jobs.push(job),
      loginLimits: { perAddressAccount: 1000, perAccount: 1000, perAddress: 1000, windowSeconds: 900 },
    }));
  });
  afterAll(async () => {
    await h.close();
  });

  const login = (email: string, extra: Partial<Parameters<LoginFlow["login"]>[0]> = {}, from: Caller = caller("web")) =>
    flow.login({
      caller: from,
      email,
      password: PASSWORD,
      fca: false,
      assertions: undefined,
      authorization: undefined,
      ...extra,
    });
  const completeMfa = (mfaToken: string, code: string, extra: Partial<Parameters<LoginFlow["completeMfa"]>[0]> = {}) =>
    flow.completeMfa({ caller: caller("web"), mfaToken, code, fca: false, authorization: undefined, ...extra });
  const authorization = (clientId = CLIENT_ID) =>
    create(AuthorizationRequestSchema, {
      clientId,
      redirectUri: "https://shop.example.com/cb",
      scope: "openid",
      codeChallenge: "c".repeat(43),
      nonce: "n1",
    });

  /** A user of the `web` entry point (email to confirm, name mandatory, birthday not). */
  async function registered() {
    const email = uniqueEmail();
    const res = await h.users.registerUser({ caller: caller("web"), object: userObject(email) });
    return { email, id: res.user!.id, code: h.lastDelivery(email).secrets.code };
  }

  it("runs the steps in the contract's order: confirmation (412), MFA (428), terms (451), then the session", async () => {
    const u = await registered();
    const { secret } = await enrollTotp(factor, u.id, "Gatehouse");
    const totp = totpSteps((at) => totpCode(secret, at));
    await confirmTotp(factor, u.id, totp.fresh());
    catalog.push(catalogAssertion("flow-tos", { mandatory: true }));
    try {
      const unconfirmed = outcomeOf(await login(u.email), "confirmationRequired");
      expect(unconfirmed).toMatchObject({ keys: ["email"], key: "email", resendLimited: false });
      expect(jobs.at(-1)).toMatchObject({ userId: u.id, purpose: "resend" });
      await h.users.confirmIdentifier({ userId: u.id, key: "email", code: u.code });

      const mfa = outcomeOf(await login(u.email, { fca: true }), "mfaRequired");
      expect(mfa).toMatchObject({ methods: ["totp"], enroll: false });
      const terms = outcomeOf(await completeMfa(mfa.mfaToken, totp.fresh()), "termsRequired");
      expect(terms.assertions.map((a) => a.key)).toEqual(["flow-tos"]);
      expect(grants.sessions.filter((s) => s.userId === u.id)).toHaveLength(0);

      // Answers sent with the login are recorded before the MFA step; the terms step then lets it through.
      const again = outcomeOf(
        await login(u.email, { assertions: { "flow-tos": { objectType: "assertion", value: true } } }),
        "mfaRequired",
      );
      const done = outcomeOf(await completeMfa(again.mfaToken, totp.fresh(), { fca: true }), "session");
      expect(done.user?.id).toBe(u.id);
      expect(grants.sessions.at(-1)).toEqual({ userId: u.id, clientId: CLIENT_ID });
    } finally {
      catalog.length = 0;
    }
  });

  it("fca: the grant and the missing mandatory fields, computed once, as ProfileIncomplete; a hosted login asks before its code", async () => {
    const email = uniqueEmail();
    await h.users.registerUser({
      caller: caller("open"),
      object: userObject(email, { datas: { surname: { objectType: "data", value: "P" } } }),
    });
    const incomplete = outcomeOf(await login(email, { fca: true }, caller("profile")), "profileIncomplete");
    expect(incomplete.missingFields).toEqual(["name", "birthday"]);
    expect(incomplete.grant.case).toBe("session");
    const quiet = outcomeOf(await login(email, {}, caller("profile")), "session");
    expect(quiet.session?.accessToken).toMatch(/^access-/);
    const codes = grants.codes.length;
    const hosted = outcomeOf(
      await login(email, { fca: true, authorization: authorization() }, caller("profile")),
      "profileRequired",
    );
    expect(hosted.missingFields).toEqual(["name", "birthday"]);
    expect(hosted.flowToken).toBeTruthy();
    expect(grants.codes).toHaveLength(codes);
  });

  it("resolves the entry point once per login and once per MFA completion", async () => {
    const u = await registered();
    await h.users.confirmIdentifier({ userId: u.id, key: "email", code: u.code });
    lookups.length = 0;
    outcomeOf(await login(u.email), "session");
    expect(lookups).toEqual([caller("web").entrypointId]);

    mfaPolicy = "required";
    try {
      lookups.length = 0;
      const mfa = outcomeOf(await login(u.email), "mfaRequired");
      expect(mfa.enroll).toBe(true);
      // Finishing with a code before enrolling asks for the enrolment again (same token).
      const again = outcomeOf(await completeMfa(mfa.mfaToken, "123456"), "mfaRequired");
      expect(again).toMatchObject({ mfaToken: mfa.mfaToken, enroll: true });
      expect(lookups).toHaveLength(2);
    } finally {
      mfaPolicy = "off";
    }
  });

  it("with an authorization request, a finished login is a code bound to the user and when they authenticated; no session is opened", async () => {
    const u = await registered();
    await h.users.confirmIdentifier({ userId: u.id, key: "email", code: u.code });
    const sessions = grants.sessions.length;
    const before = Date.now();
    const code = outcomeOf(await login(u.email, { authorization: authorization() }), "authorizationCode");
    expect(code.code).toMatch(new RegExp(`-for-${u.id}$`));
    expect(grants.sessions).toHaveLength(sessions);
    const issued = grants.codes.at(-1)!;
    expect(issued).toMatchObject({
      userId: u.id,
      request: { clientId: CLIENT_ID, redirectUri: "https://shop.example.com/cb", nonce: "n1" },
    });
    expect(issued.authTime.getTime()).toBeGreaterThanOrEqual(before);
    expect(issued.authTime.getTime()).toBeLessThanOrEqual(Date.now());

    // With MFA: the code comes after the second factor, and auth_time is when it passed.
    const { secret } = await enrollTotp(factor, u.id, "Gatehouse");
    await confirmTotp(factor, u.id, totpCode(secret));
    const mfa = outcomeOf(await login(u.email, { authorization: authorization() }), "mfaRequired");
    const passedAfter = Date.now();
    outcomeOf(
      await completeMfa(mfa.mfaToken, totpCode(secret, Date.now() + STEP), { authorization: authorization() }),
      "authorizationCode",
    );
    expect(grants.codes.at(-1)!.authTime.getTime()).toBeGreaterThanOrEqual(passedAfter);
    expect(grants.sessions).toHaveLength(sessions);
  });

  it("account status: a locked account is 403 ACCOUNT_LOCKED right after the password, also when a 428 finishes after the lock", async () => {
    const u = await registered();
    await h.users.confirmIdentifier({ userId: u.id, key: "email", code: u.code });
    const { secret } = await enrollTotp(factor, u.id, "Gatehouse");
    await confirmTotp(factor, u.id, totpCode(secret));
    const mfa = outcomeOf(await login(u.email), "mfaRequired");
    await h.db.query("UPDATE users.users SET locked_at = now() WHERE id = $1", [u.id]);
    const sessions = grants.sessions.length;
    expect((await failure(completeMfa(mfa.mfaToken, totpCode(secret, Date.now() + STEP)))).reason).toBe(
      "ACCOUNT_LOCKED",
    );
    expect((await failure(login(u.email))).reason).toBe("ACCOUNT_LOCKED");
    // A wrong password does not tell that the account is locked.
    expect((await failure(login(u.email, { password: "wrong password" }))).reason).toBe("INVALID_CREDENTIALS");
    expect(grants.sessions).toHaveLength(sessions);
    await h.db.query("UPDATE users.users SET locked_at = NULL WHERE id = $1", [u.id]);
    expect(outcomeOf(await login(u.email), "mfaRequired").mfaToken).toBeTruthy();
  });

  it("refuses, before the password, an authorization request of another client and an entry point that is unknown or another application's", async () => {
    const u = await registered();
    const foreign = await failure(
      login(u.email, { password: "wrong password", authorization: authorization("100000000002") }),
    );
    expect(foreign.reason).toBe("VALIDATION_FAILED");
    expect(foreign.violations).toEqual([
      expect.objectContaining({ field: "authorization_request.client_id", code: "invalid_value" }),
    ]);
    const unknown = await failure(login(u.email, {}, caller("nope")));
    const other = await failure(login(u.email, {}, caller("web", { clientId: "100000000002" })));
    for (const f of [unknown, other]) {
      expect(f.reason).toBe("PERMISSION_DENIED");
      expect(f.message).toBe("From is not an entry point of this application");
    }
    expect((await failure(login(u.email, { password: "wrong password" }))).reason).toBe("INVALID_CREDENTIALS");
  });

  it("gives a public client (an entry point of the caller's application, contract section 9) the code; not another application's entry point", async () => {
    const u = await registered();
    await h.users.confirmIdentifier({ userId: u.id, key: "email", code: u.code });
    for (const publicClient of [ENTRYPOINTS.web!.id, ENTRYPOINTS.open!.id]) {
      outcomeOf(await login(u.email, { authorization: authorization(publicClient) }), "authorizationCode");
      expect(grants.codes.at(-1)).toMatchObject({ userId: u.id, request: { clientId: publicClient } });
    }
    for (const foreign of [OTHER_APP_ENTRYPOINT, `${CLIENT_ID}_nope`]) {
      const f = await failure(login(u.email, { password: "wrong password", authorization: authorization(foreign) }));
      expect(f.reason).toBe("VALIDATION_FAILED");
      expect(f.violations).toEqual([
        expect.objectContaining({ field: "authorization_request.client_id", code: "invalid_value" }),
      ]);
    }
  });
});
