import { Code } from "@connectrpc/connect";
import type { JsonObject } from "@bufbuild/protobuf";
import { pwnedPasswords } from "@gatehouse/abuse";
import { UpdateMode } from "@gatehouse/proto";
import { rangeApi } from "@gatehouse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  backends,
  caller,
  failure,
  loggedIn,
  startUsers,
  uniqueEmail,
  userObject,
  type Harness,
} from "../../test/harness.ts";

// Contract section 17 through the users service: every place that sets a password refuses a weak one.
const BREACHED = "tangerine orbit 1979";
const PASSWORD = "correct horse battery";

describe.each(backends)("password policy on %s", (_name, open) => {
  let h: Harness;
  let users: Harness["users"];
  let range: Awaited<ReturnType<typeof rangeApi>>;
  beforeAll(async () => {
    h = await startUsers(open);
    range = await rangeApi([BREACHED]);
    users = await h.serve({ breached: pwnedPasswords({ url: range.url }) });
  });
  afterAll(async () => {
    await range.close();
    await h.close();
  });

  const register = (email: string, password: string) =>
    failure(users.registerUser({ caller: caller(), object: { ...userObject(email), password } }));

  it("registration: 400 password_weak for a common, a breached or an email-holding password", async () => {
    const email = uniqueEmail();
    const local = email.split("@")[0]!;
    for (const password of ["Password1", "ｐａｓｓｗｏｒｄ１", BREACHED, `my ${local.toUpperCase()} key`]) {
      const err = await register(email, password);
      expect(err.code).toBe(Code.InvalidArgument);
      expect(err.reason).toBe("VALIDATION_FAILED");
      expect(err.violations.map((v) => `${v.field}:${v.code}`)).toEqual(["object.password:password_weak"]);
    }
    // Only the first 5 hex characters of the SHA-1 were sent.
    expect(range.asked.length).toBeGreaterThan(0);
    for (const path of range.asked) expect(path).toMatch(/^\/range\/[0-9A-F]{5}$/);
    expect((await users.registerUser({ caller: caller(), object: userObject(email) })).user?.id).toBeTruthy();
  });

  it("replace and patch: 416 password_weak for a new password holding the user's email or a breached one", async () => {
    const email = uniqueEmail();
    const reg = await users.registerUser({ caller: caller("web"), object: userObject(email) });
    await users.confirmIdentifier({ linkToken: h.lastDelivery(email).secrets.linkToken });
    const userId = reg.user!.id;
    for (const [mode, newPassword] of [
      [UpdateMode.PATCH, `${email.split("@")[0]}!!`],
      [UpdateMode.PATCH, BREACHED],
      [UpdateMode.PATCH, "qwertyuiop"],
    ] as const) {
      const object = { objectType: "user", password: PASSWORD, newPassword } as JsonObject;
      const err = await failure(
        users.updateUser({ caller: caller("web"), mode, actorUserId: userId, targetUserId: userId, object }),
      );
      expect(err.reason).toBe("CONSTRAINT_VIOLATION");
      expect(err.violations.map((v) => `${v.field}:${v.code}`)).toEqual(["object.newPassword:password_weak"]);
    }
  });

  it("activation: the password the link sets follows the same policy", async () => {
    const email = uniqueEmail();
    const { password: _p, ...object } = userObject(email);
    await users.registerUser({ caller: caller("assisted"), object });
    const activationToken = h.lastDelivery(email).secrets.linkToken;
    for (const password of ["iloveyou", BREACHED, `${email.split("@")[0]} 2026`]) {
      const err = await failure(users.activateUser({ activationToken, password }));
      expect(err.violations.map((v) => `${v.field}:${v.code}`)).toEqual(["password:password_weak"]);
    }
    expect((await users.activateUser({ activationToken, password: PASSWORD })).user?.ids.email?.confirmed).toBe(true);
  });

  it("NFKC: a password set in one form signs in typed in another; a hash of the typed form is rehashed in NFKC", async () => {
    const email = uniqueEmail();
    const composed = "Caf\u00e9 con leche 42";
    const decomposed = "Cafe\u0301 con leche 42";
    const reg = await users.registerUser({ caller: caller(), object: { ...userObject(email), password: decomposed } });
    const userId = reg.user!.id;
    await users.confirmIdentifier({ linkToken: h.lastDelivery(email).secrets.linkToken });
    const login = (password: string) => users.loginUser({ caller: caller(), email, password });
    expect(loggedIn(await login(composed)).user).toBeTruthy();
    expect(loggedIn(await login(decomposed)).user).toBeTruthy();

    // A hash made before NFKC (of the typed, decomposed form): still signs in, then is rehashed.
    const rawHash = await rawArgon2(decomposed);
    await h.db.query("UPDATE users.users SET password_hash = $1 WHERE id = $2", [rawHash, userId]);
    expect(loggedIn(await login(decomposed)).user).toBeTruthy();
    const after = await h.db.query<{ password_hash: string }>("SELECT password_hash FROM users.users WHERE id = $1", [
      userId,
    ]);
    expect(after.rows[0]!.password_hash).not.toBe(rawHash);
    expect(loggedIn(await login(composed)).user).toBeTruthy();
  });
});

/** An argon2id hash of exactly these characters (no NFKC), as a hash from before section 17 was. */
async function rawArgon2(password: string): Promise<string> {
  const { hash } = await import("@node-rs/argon2");
  return hash(password, { memoryCost: 8192, timeCost: 1, parallelism: 1, algorithm: 2 as never });
}
