import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  backends,
  caller,
  failure,
  loggedIn,
  outcomeOf,
  startUsers,
  uniqueEmail,
  userObject,
  type Harness,
} from "../../test/harness.ts";

const PASSWORD = "a brand new passphrase";

// Assisted entry points (contract section 8): the application registers the
// user without a password; the activation link sets it and confirms the email.
describe.each(backends)("assisted registration and activation on %s", (_name, open) => {
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

  async function assisted() {
    const email = uniqueEmail();
    const { password: _p, ...object } = userObject(email);
    const res = await users.registerUser({ caller: caller("assisted"), object });
    return { email, id: res.user!.id, res, token: h.lastDelivery(email).secrets.linkToken };
  }

  it("takes no password; sends an activation link (no code), not a confirmation; no session", async () => {
    const email = uniqueEmail();
    const refused = await failure(users.registerUser({ caller: caller("assisted"), object: userObject(email) }));
    expect(refused.violations).toEqual([expect.objectContaining({ field: "object.password", code: "not_allowed" })]);
    const a = await assisted();
    expect(a.res.session).toBeUndefined();
    expect(a.res.user?.ids.email?.confirmed).toBe(false);
    const sent = h.jobs.filter((j) => j.to === a.email);
    expect(sent.map((j) => j.purpose)).toEqual(["activation"]);
    expect(h.secretsOf(sent[0]!)).toEqual({ code: "", linkToken: a.token });
    const rows = await h.db.query<{ token_hash: string; expires_at: Date }>(
      "SELECT token_hash, expires_at FROM users.activations WHERE user_id = $1",
      [a.id],
    );
    expect(rows.rows[0]!.token_hash).not.toBe(a.token);
    const days = (rows.rows[0]!.expires_at.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
  });

  it("every login answers 412 (activation) until then, whatever the password; its resend sends the link again", async () => {
    const a = await assisted();
    for (const password of ["whatever it is", ""]) {
      const c = outcomeOf(
        await users.loginUser({ caller: caller("assisted"), email: a.email, password }),
        "confirmationRequired",
      );
      expect(c).toMatchObject({ activationRequired: true, key: "email", flowToken: "" });
    }
    expect(h.jobs.filter((j) => j.to === a.email).map((j) => j.purpose)).toEqual([
      "activation",
      "activation",
      "activation",
    ]);
    // The first link still works after the resends.
    await users.activateUser({ activationToken: a.token, password: PASSWORD });
  });

  it("the link shows whom it activates, sets a valid password once, confirms the email, and the password then logs in", async () => {
    const a = await assisted();
    expect(await users.getActivation({ activationToken: a.token })).toMatchObject({
      key: "email",
      value: a.email,
      passwordless: false,
      entrypointId: caller("assisted").entrypointId,
    });
    const short = await failure(users.activateUser({ activationToken: a.token, password: "short" }));
    expect(short.violations).toEqual([expect.objectContaining({ field: "password", code: "too_short" })]);
    const done = await users.activateUser({ activationToken: a.token, password: PASSWORD });
    expect(done.user?.ids.email?.confirmed).toBe(true);
    expect(done.user?.passwordless).toBe(false);
    expect(
      loggedIn(await users.loginUser({ caller: caller("assisted"), email: a.email, password: PASSWORD })).user?.id,
    ).toBe(a.id);
    expect(
      (await failure(users.loginUser({ caller: caller("assisted"), email: a.email, password: "wrong password" })))
        .reason,
    ).toBe("INVALID_CREDENTIALS");
    for (const call of [
      users.getActivation({ activationToken: a.token }),
      users.activateUser({ activationToken: a.token, password: PASSWORD }),
    ]) {
      expect((await failure(call)).reason).toBe("INVALID_CODE");
    }
  });

  it("an expired or unknown link activates nothing; parallel uses of one link: one wins", async () => {
    const a = await assisted();
    await h.db.query("UPDATE users.activations SET expires_at = now() - interval '1 second' WHERE user_id = $1", [
      a.id,
    ]);
    expect((await failure(users.activateUser({ activationToken: a.token, password: PASSWORD }))).reason).toBe(
      "INVALID_CODE",
    );
    expect((await failure(users.getActivation({ activationToken: "x".repeat(43) }))).reason).toBe("INVALID_CODE");
    const b = await assisted();
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => users.activateUser({ activationToken: b.token, password: PASSWORD })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  });
});
