import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  backends,
  caller,
  CLIENT_ID,
  failure,
  loggedIn,
  outcomeOf,
  startUsers,
  uniqueEmail,
  userObject,
  type Harness,
} from "../../test/harness.ts";
import { argon2Passwords, type Passwords } from "../credentials/passwords.ts";

const PASSWORD = "correct horse battery";

/** Passwords that count how many verifications actually ran. */
function countingPasswords(): Passwords & { verified: number } {
  const inner = argon2Passwords();
  const counted = {
    verified: 0,
    hash: inner.hash,
    needsRehash: inner.needsRehash,
    async verify(phc: string | undefined, password: string) {
      counted.verified++;
      return inner.verify(phc, password);
    },
  };
  return counted;
}

describe.each(backends)("login on %s", (_name, open) => {
  let h: Harness;
  beforeAll(async () => {
    // Hashing is under test here (timing of unknown users, rehash): the production argon2id parameters.
    h = await startUsers(open, { productionHash: true });
  });
  afterAll(async () => {
    await h.close();
  });

  /** A user of the `open` entry point (email needs no confirmation). */
  async function openUser(email = uniqueEmail()) {
    const object = userObject(email, { datas: { surname: { objectType: "data", value: "Pérez" } } });
    const res = await h.users.registerUser({ caller: caller("open"), object });
    return { email, user: res.user! };
  }

  it("logs in with the canonical email and the password, and opens the session of the caller's application", async () => {
    const { email, user } = await openUser();
    const res = loggedIn(
      await h.users.loginUser({ caller: caller("open"), email: `  ${email.toUpperCase()}`, password: PASSWORD }),
    );
    expect(res.user?.id).toBe(user.id);
    expect(res.session?.accessToken).toMatch(new RegExp(`^access-\\d+-for-${user.id}$`));
    expect(h.grants.sessions.at(-1)).toEqual({ userId: user.id, clientId: CLIENT_ID });
  });

  it("wrong password and unknown user give the same error at a similar cost", async () => {
    const { email } = await openUser();
    // CPU time of this process (argon2's libuv threads and PGlite included), not
    // wall time: the cost of each path, whatever else the machine is doing.
    let attempt = 0;
    const timed = async (e: string) => {
      // A new address each time: the account-and-address limit (5) is not what is measured.
      const at = caller("open", { clientAddress: `${e}#${attempt++}` });
      const t = process.cpuUsage();
      const err = await failure(h.users.loginUser({ caller: at, email: e, password: "wrong password" }));
      const used = process.cpuUsage(t);
      return { err, ms: (used.user + used.system) / 1000 };
    };
    // Interleaved, so that what the process does meanwhile (GC, the embedded database) falls on both.
    const wrong: Awaited<ReturnType<typeof timed>>[] = [];
    const unknown: Awaited<ReturnType<typeof timed>>[] = [];
    // Warm-up first (the dummy hash, the embedded database's first writes), then measured.
    for (let i = 0; i < 2; i++) await Promise.all([timed(email), timed(uniqueEmail())]);
    for (let i = 0; i < 5; i++) {
      wrong.push(await timed(email));
      unknown.push(await timed(uniqueEmail()));
    }
    for (const { err } of [...wrong, ...unknown]) {
      expect(err.code).toBe(Code.PermissionDenied);
      expect(err.reason).toBe("INVALID_CREDENTIALS");
      expect(err.message).toBe(wrong[0]!.err.message);
    }
    const median = (xs: { ms: number }[]) => xs.map((x) => x.ms).sort((a, b) => a - b)[2]!;
    const ratio = median(unknown) / median(wrong);
    expect(ratio).toBeGreaterThan(0.4);
    expect(ratio).toBeLessThan(2.5);
  });

  it("parallel wrong passwords: no more than the account-and-address limit are even verified", async () => {
    const { email } = await openUser();
    const passwords = countingPasswords();
    const client = await h.serve({
      passwords,
      loginLimits: { perAddressAccount: 5, perAccount: 1000, perAddress: 1000, windowSeconds: 900 },
    });
    const at = caller("open");
    const results = await Promise.all(
      Array.from({ length: 16 }, () => failure(client.loginUser({ caller: at, email, password: "wrong password" }))),
    );
    expect(passwords.verified).toBeLessThanOrEqual(5);
    const limited = results.filter((r) => r.reason === "RATE_LIMITED");
    expect(limited).toHaveLength(11);
    expect(results.filter((r) => r.reason === "INVALID_CREDENTIALS")).toHaveLength(5);
    expect(limited[0]!.code).toBe(Code.ResourceExhausted);
    expect(Number(limited[0]!.metadata.retry_after)).toBeGreaterThan(0);
    expect(Number(limited[0]!.metadata.retry_after)).toBeLessThanOrEqual(900);
    // From that address even the right password waits for the window...
    expect((await failure(client.loginUser({ caller: at, email, password: PASSWORD }))).reason).toBe("RATE_LIMITED");
    // ...and from any other address the account's owner logs in: the guesser locked out only itself.
    expect(loggedIn(await client.loginUser({ caller: caller("open"), email, password: PASSWORD })).user).toBeDefined();
  });

  it("a success forgives this address's failures for the account", async () => {
    const { email } = await openUser();
    const client = await h.serve({
      loginLimits: { perAddressAccount: 3, perAccount: 1000, perAddress: 1000, windowSeconds: 900 },
    });
    const at = caller("open");
    for (let i = 0; i < 2; i++)
      expect((await failure(client.loginUser({ caller: at, email, password: "nope-nope" }))).reason).toBe(
        "INVALID_CREDENTIALS",
      );
    await client.loginUser({ caller: at, email, password: PASSWORD });
    for (let i = 0; i < 3; i++)
      expect((await failure(client.loginUser({ caller: at, email, password: "nope-nope" }))).reason).toBe(
        "INVALID_CREDENTIALS",
      );
    expect((await failure(client.loginUser({ caller: at, email, password: "nope-nope" }))).reason).toBe("RATE_LIMITED");
  });

  it("over the address limit only accounts with failures from that address wait; a right password for any other still logs in", async () => {
    const client = await h.serve({
      loginLimits: { perAddressAccount: 100, perAccount: 1000, perAddress: 3, windowSeconds: 900 },
    });
    const nat = caller("open");
    // Someone behind the NAT fails on three accounts: the address is over its limit.
    for (let i = 0; i < 3; i++)
      expect(
        (await failure(client.loginUser({ caller: nat, email: uniqueEmail(), password: "x-x-x-x-x" }))).reason,
      ).toBe("INVALID_CREDENTIALS");
    // Users behind the same address with no failures from there log in.
    for (let i = 0; i < 3; i++) {
      const { email } = await openUser();
      expect(loggedIn(await client.loginUser({ caller: nat, email, password: PASSWORD })).user).toBeDefined();
    }
    // A guess at a fresh account is checked once; the next one for that account waits.
    const { email } = await openUser();
    expect((await failure(client.loginUser({ caller: nat, email, password: "x-x-x-x-x" }))).reason).toBe(
      "INVALID_CREDENTIALS",
    );
    expect((await failure(client.loginUser({ caller: nat, email, password: PASSWORD }))).reason).toBe("RATE_LIMITED");
    expect(loggedIn(await client.loginUser({ caller: caller("open"), email, password: PASSWORD })).user).toBeDefined();
  });

  it("many addresses guessing one account slow it down, but not for addresses it logged in from; refusals do not count", async () => {
    const { email } = await openUser();
    const client = await h.serve({
      loginLimits: { perAddressAccount: 2, perAccount: 4, perAddress: 1000, windowSeconds: 900 },
    });
    const home = caller("open");
    await client.loginUser({ caller: home, email, password: PASSWORD });
    // One attacker address hammering its own blocked pair pushes nothing: the account stays open to others.
    const attacker = caller("open");
    for (let i = 0; i < 2; i++)
      expect((await failure(client.loginUser({ caller: attacker, email, password: "guess-guess" }))).reason).toBe(
        "INVALID_CREDENTIALS",
      );
    for (let i = 0; i < 10; i++)
      expect((await failure(client.loginUser({ caller: attacker, email, password: "guess-guess" }))).reason).toBe(
        "RATE_LIMITED",
      );
    expect(loggedIn(await client.loginUser({ caller: caller("open"), email, password: PASSWORD })).user).toBeDefined();
    // A second attacker address: four failures in all, the per-account limit.
    const second = caller("open");
    for (let i = 0; i < 2; i++)
      expect((await failure(client.loginUser({ caller: second, email, password: "guess-guess" }))).reason).toBe(
        "INVALID_CREDENTIALS",
      );
    // A third one is refused before any password check, a new address of the owner too...
    expect((await failure(client.loginUser({ caller: caller("open"), email, password: "guess-guess" }))).reason).toBe(
      "RATE_LIMITED",
    );
    expect((await failure(client.loginUser({ caller: caller("open"), email, password: PASSWORD }))).reason).toBe(
      "RATE_LIMITED",
    );
    // ...but the address the owner logged in from goes on.
    expect(loggedIn(await client.loginUser({ caller: home, email, password: PASSWORD })).user).toBeDefined();
  });

  it("successful logins do not spend the address budget (many users behind one NAT)", async () => {
    const { email } = await openUser();
    const client = await h.serve({
      loginLimits: { perAddressAccount: 100, perAccount: 100, perAddress: 2, windowSeconds: 900 },
    });
    const at = caller("open", { clientAddress: `203.0.113.9-${Date.now()}` });
    for (let i = 0; i < 6; i++)
      expect(loggedIn(await client.loginUser({ caller: at, email, password: PASSWORD })).user!.id).toBeTruthy();
    for (let i = 0; i < 2; i++)
      expect((await failure(client.loginUser({ caller: at, email, password: "nope-nope" }))).reason).toBe(
        "INVALID_CREDENTIALS",
      );
    // Over the address limit now, and this account failed from here: it waits.
    expect((await failure(client.loginUser({ caller: at, email, password: PASSWORD }))).reason).toBe("RATE_LIMITED");
  });

  it("an unconfirmed main email cannot log in (ConfirmationRequired, 412; no session), but only after the password is right", async () => {
    const email = uniqueEmail();
    await h.users.registerUser({ caller: caller("web"), object: userObject(email) });
    const sessions = h.grants.sessions.length;
    const unconfirmed = outcomeOf(
      await h.users.loginUser({ caller: caller("web"), email, password: PASSWORD }),
      "confirmationRequired",
    );
    expect(unconfirmed.keys).toEqual(["email"]);
    expect(h.grants.sessions).toHaveLength(sessions);
    expect(
      (await failure(h.users.loginUser({ caller: caller("web"), email, password: "wrong password" }))).reason,
    ).toBe("INVALID_CREDENTIALS");
  });

  it("passwordless users cannot log in with a password", async () => {
    const email = uniqueEmail();
    await h.users.registerUser({ caller: caller("nopass"), object: { ...userObject(email), password: null } });
    expect((await failure(h.users.loginUser({ caller: caller("open"), email, password: "" }))).reason).toBe(
      "INVALID_CREDENTIALS",
    );
  });

  it("rehashes a password made with other parameters on login", async () => {
    const email = uniqueEmail();
    const weak = await h.serve({ passwords: argon2Passwords({ memoryCost: 8192, timeCost: 1, parallelism: 1 }) });
    const reg = await weak.registerUser({
      caller: caller("open"),
      object: userObject(email, { datas: { surname: { objectType: "data", value: "P" } } }),
    });
    const hashOf = async () =>
      (
        await h.db.query<{ password_hash: string }>("SELECT password_hash FROM users.users WHERE id = $1", [
          reg.user!.id,
        ])
      ).rows[0]!.password_hash;
    expect(await hashOf()).toContain("$m=8192,t=1,p=1$");
    await h.users.loginUser({ caller: caller("open"), email, password: PASSWORD });
    const after = await hashOf();
    expect(after).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    await h.users.loginUser({ caller: caller("open"), email, password: PASSWORD });
    expect(await hashOf()).toBe(after);
  });

  it("fca lists the entry point's mandatory data the user lacks", async () => {
    const { email } = await openUser();
    const res = outcomeOf(
      await h.users.loginUser({ caller: caller("profile"), email, password: PASSWORD, fca: true }),
      "profileIncomplete",
    );
    expect(res.missingFields).toEqual(["name", "birthday"]);
    expect(res.grant.case).toBe("session");
    const quiet = await h.users.loginUser({ caller: caller("profile"), email, password: PASSWORD });
    expect(loggedIn(quiet).session?.accessToken).toBeTruthy();
  });
});
