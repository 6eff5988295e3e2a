import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  backends,
  caller,
  failure,
  startUsers,
  uniqueEmail,
  userObject,
  ENTRYPOINTS,
  type Harness,
  loggedIn,
  outcomeOf,
} from "../../test/harness.ts";
import { parseUpdate } from "../update/parse.ts";
import { userStore } from "../users/store.ts";
import { confirmTotp, enrollTotp } from "./enrolment.ts";
import { checkFactor, type FactorDeps } from "../verifiers/totp/factor.ts";
import { countUserGuess, DEFAULT_MFA_LIMITS } from "../verifiers/totp/limits.ts";
import { countTokenGuess, issueMfaToken, readMfaToken, spendMfaToken } from "./login-token.ts";
import { changesCredentials } from "../update/step-up.ts";
import { totpStore } from "../verifiers/totp/store.ts";
import { totpCode } from "../verifiers/totp/totp.ts";

const PASSWORD = "correct horse battery";
const STEP = 30_000;

describe.each(backends)("MFA (TOTP) on %s", (_name, open) => {
  let h: Harness;
  let deps: FactorDeps;
  beforeAll(async () => {
    h = await startUsers(open);
    deps = { data: h.data, kv: h.kv, keys: h.keys, limits: DEFAULT_MFA_LIMITS };
  });
  afterAll(async () => {
    await h.close();
  });

  async function openUser() {
    const email = uniqueEmail();
    const object = userObject(email, { datas: { surname: { objectType: "data", value: "Pérez" } } });
    const res = await h.users.registerUser({ caller: caller("open"), object });
    return { email, id: res.user!.id };
  }

  it("enrols a sealed secret, off until a valid code confirms it; recovery codes are stored as MACs", async () => {
    const u = await openUser();
    const { secret, otpauthUrl } = await enrollTotp(deps, u.id, "Gatehouse");
    expect(otpauthUrl).toContain(`secret=${secret}`);
    const row = (
      await h.db.query<{ mfa_totp_sealed: string; mfa_enabled_at: Date | null }>(
        "SELECT mfa_totp_sealed, mfa_enabled_at FROM users.users WHERE id = $1",
        [u.id],
      )
    ).rows[0]!;
    expect(row.mfa_totp_sealed).not.toContain(secret);
    expect(row.mfa_enabled_at).toBeNull();
    // Not on yet: the login goes through.
    expect(
      loggedIn(await h.users.loginUser({ caller: caller("open"), email: u.email, password: PASSWORD })).user?.id,
    ).toBe(u.id);

    expect((await failure(confirmTotp(deps, u.id, totpCode(secret, Date.now() + 5 * STEP)))).reason).toBe(
      "MFA_CODE_INVALID",
    );
    const codes = await confirmTotp(deps, u.id, totpCode(secret));
    expect(codes).toHaveLength(10);
    const stored = await h.db.query<{ code_mac: string }>(
      "SELECT code_mac FROM users.mfa_recovery_codes WHERE user_id = $1",
      [u.id],
    );
    expect(stored.rows).toHaveLength(10);
    expect(stored.rows.map((r) => r.code_mac)).not.toContain(codes[0]);
    expect((await failure(confirmTotp(deps, u.id, totpCode(secret, Date.now() + STEP)))).reason).toBe(
      "MFA_STATE_CONFLICT",
    );

    // On: the login answers MfaRequired with a token and the methods.
    const mfa = outcomeOf(
      await h.users.loginUser({ caller: caller("open"), email: u.email, password: PASSWORD }),
      "mfaRequired",
    );
    expect(mfa.methods).toEqual(["totp"]);
    expect(mfa.mfaToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mfa.enroll).toBe(false);
    const bound = await readMfaToken(h.kv, mfa.mfaToken, {
      clientId: caller("open").clientId,
      entrypointId: caller("open").entrypointId,
    });
    expect(bound.binding).toMatchObject({ userId: u.id, enroll: false, fca: false });
    await expect(readMfaToken(h.kv, mfa.mfaToken, { clientId: "another" })).rejects.toThrow();

    // A time step works once; a recovery code works once.
    const state = (await totpStore(h.db).state(u.id))!;
    const next = totpCode(secret, Date.now() + STEP);
    expect(await checkFactor(deps, state, next)).toBe("totp");
    expect(await checkFactor(deps, state, next)).toBeUndefined();
    expect(await checkFactor(deps, state, codes[3]!)).toBe("recovery");
    expect(await checkFactor(deps, state, codes[3]!)).toBeUndefined();
  });

  it("counts guesses before checking them: parallel guesses never pass the per-token limit, then the token dies", async () => {
    const token = await issueMfaToken(h.kv, {
      userId: "u1",
      clientId: "c",
      entrypointId: "e",
      sourceId: "pc",
      fca: false,
      enroll: false,
    });
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => countTokenGuess(h.kv, token, 5)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    await expect(spendMfaToken(h.kv, token)).rejects.toThrow();

    const other = await issueMfaToken(h.kv, {
      userId: "u1",
      clientId: "c",
      entrypointId: "e",
      sourceId: "pc",
      fca: false,
      enroll: false,
    });
    const spent = await Promise.allSettled([spendMfaToken(h.kv, other), spendMfaToken(h.kv, other)]);
    expect(spent.filter((r) => r.status === "fulfilled")).toHaveLength(1);

    const user = `user-${Date.now()}`;
    const guesses = await Promise.allSettled(Array.from({ length: 15 }, () => countUserGuess(deps, user)));
    expect(guesses.filter((r) => r.status === "fulfilled")).toHaveLength(DEFAULT_MFA_LIMITS.perUser);
  });

  it("step-up applies to changes of email, phone and password only", async () => {
    const u = await openUser();
    const user = (await userStore(h.db).byId(u.id))!;
    const ep = ENTRYPOINTS.open!;
    const input = (object: Record<string, unknown>) =>
      parseUpdate(ep, { objectType: "user", ...object } as never, "patch").input;
    expect(
      changesCredentials(ep, user, input({ datas: { name: { objectType: "data", value: "Eva" } } }), "patch"),
    ).toBe(false);
    expect(
      changesCredentials(ep, user, input({ ids: { email: { objectType: "user_id", value: u.email } } }), "patch"),
    ).toBe(false);
    expect(
      changesCredentials(ep, user, input({ ids: { email: { objectType: "user_id", value: uniqueEmail() } } }), "patch"),
    ).toBe(true);
    expect(changesCredentials(ep, user, input({ newPassword: "another good passphrase" }), "patch")).toBe(true);
  });
});
