import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends, caller, failure, startUsers, uniqueEmail, userObject, type Harness } from "../../test/harness.ts";

describe.each(backends)("registration on %s", (_name, open) => {
  let h: Harness;
  beforeAll(async () => {
    // This suite checks the stored hash: the production argon2id parameters.
    h = await startUsers(open, { productionHash: true });
  });
  afterAll(async () => {
    await h.close();
  });

  it("registers a user with ids, datas, addresses and assertions; email pending confirmation", async () => {
    const email = uniqueEmail();
    const res = await h.users.registerUser({
      caller: caller(),
      object: userObject(`  ${email.toUpperCase()} `, {
        datas: { name: { objectType: "data", value: "Ana" }, birthday: { objectType: "data", value: "1990-02-28" } },
        addresses: {
          home: {
            objectType: "address",
            streetAddress: "Calle 1",
            postalCode: "28001",
            addressLocality: "Madrid",
            addressCountry: "ES",
          },
        },
        assertions: { terms: { objectType: "assertion", value: true } },
      }),
    });
    const user = res.user!;
    expect(user.id).toMatch(/^[1-9]\d{15}$/);
    expect(Number.isSafeInteger(Number(user.id))).toBe(true);
    expect(user.pulseId).toMatch(/^[0-9a-f]{32}$/);
    expect(user.ids.email).toMatchObject({ value: email, confirmed: false });
    expect(user.ids.email?.pending).toBeUndefined();
    expect(user.datas.name?.value?.kind).toEqual({ case: "stringValue", value: "Ana" });
    expect(user.datas.birthday?.value?.kind).toEqual({ case: "stringValue", value: "1990-02-28" });
    expect(user.addresses.home).toMatchObject({ streetAddress: "Calle 1", addressCountry: "ES" });
    expect(user.assertions.terms?.value).toBe(true);
    expect(user.assertions.terms?.acceptTime).toBeDefined();
    expect(user.passwordless).toBe(false);
    expect(res.session).toBeUndefined();
    const got = await h.users.getUser({ pulseId: user.pulseId });
    expect(got.user?.id).toBe(user.id);
    const stored = await h.db.query<{ password_hash: string }>("SELECT password_hash FROM users.users WHERE id = $1", [
      user.id,
    ]);
    expect(stored.rows[0]?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it("collects every violation with its contract path", async () => {
    const err = await failure(
      h.users.registerUser({
        caller: caller(),
        object: {
          objectType: "person",
          password: "short",
          nickname: "x",
          ids: {
            email: { objectType: "user_id", value: "not-an-email" },
            screen_name: { objectType: "user_id", value: "ana" },
          },
          datas: { birthday: { objectType: "data", value: "1990-02-30" }, gender: { objectType: "data", value: "f" } },
        },
      }),
    );
    expect(err.code).toBe(Code.InvalidArgument);
    expect(err.reason).toBe("VALIDATION_FAILED");
    const items = err.violations.map((v) => `${v.field}:${v.code}`);
    expect(items.sort()).toEqual(
      [
        "object.nickname:unknown_member",
        "object.objectType:invalid_value",
        "object.password:too_short",
        "object.ids.screen_name:not_in_entrypoint",
        "object.ids.email.value:invalid_format",
        "object.datas.gender:not_in_entrypoint",
        "object.datas.name.value:required",
        "object.datas.birthday.value:invalid_format",
      ].sort(),
    );
  });

  it("requires mandatory ids and the password, checks phone and data formats", async () => {
    const err = await failure(
      h.users.registerUser({
        caller: caller(),
        object: {
          objectType: "user",
          ids: { phone_number: { objectType: "user_id", value: "600123456" } },
          datas: { name: { objectType: "data", value: "x".repeat(201) } },
        },
      }),
    );
    expect(err.violations.map((v) => `${v.field}:${v.code}`).sort()).toEqual(
      [
        "object.password:required",
        "object.ids.email.value:required",
        "object.ids.phone_number.value:invalid_format",
        "object.datas.name.value:too_long",
      ].sort(),
    );
    const long = await failure(
      h.users.registerUser({ caller: caller(), object: userObject(uniqueEmail(), { password: "p".repeat(129) }) }),
    );
    expect(long.violations).toEqual([expect.objectContaining({ field: "object.password", code: "too_long" })]);
  });

  it("passwordless entry points take no password", async () => {
    const ok = await h.users.registerUser({
      caller: caller("nopass"),
      object: { ...userObject(), password: undefined } as never,
    });
    expect(ok.user?.passwordless).toBe(true);
    const err = await failure(h.users.registerUser({ caller: caller("nopass"), object: userObject() }));
    expect(err.violations).toEqual([expect.objectContaining({ field: "object.password", code: "not_allowed" })]);
  });

  it("rejects unknown entry points and entry points of another application", async () => {
    expect((await failure(h.users.registerUser({ caller: caller("nope"), object: userObject() }))).reason).toBe(
      "PERMISSION_DENIED",
    );
    const other = await failure(
      h.users.registerUser({ caller: caller("web", { clientId: "999_other" }), object: userObject() }),
    );
    expect(other.code).toBe(Code.PermissionDenied);
  });

  it("one user per identifier value: the same email in another case is taken (409)", async () => {
    const email = uniqueEmail();
    await h.users.registerUser({ caller: caller(), object: userObject(email) });
    const err = await failure(h.users.registerUser({ caller: caller(), object: userObject(email.toUpperCase()) }));
    expect(err.code).toBe(Code.AlreadyExists);
    expect(err.reason).toBe("IDENTIFIER_TAKEN");
    expect(err.violations).toEqual([expect.objectContaining({ field: "object.ids.email.value" })]);
  });

  it("16 parallel registrations of one email: exactly one succeeds, the rest are IDENTIFIER_TAKEN", async () => {
    const email = uniqueEmail();
    const results = await Promise.allSettled(
      Array.from({ length: 16 }, () => h.users.registerUser({ caller: caller(), object: userObject(email) })),
    );
    const ok = results.filter((r) => r.status === "fulfilled");
    expect(ok).toHaveLength(1);
    for (const r of results)
      if (r.status === "rejected") expect((await failure(Promise.reject(r.reason))).reason).toBe("IDENTIFIER_TAKEN");
    const rows = await h.db.query<{ n: number }>("SELECT count(*)::int AS n FROM users.identifiers WHERE value = $1", [
      email,
    ]);
    expect(rows.rows[0]?.n).toBe(1);
    const users = await h.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM users.confirmations WHERE value = $1",
      [email],
    );
    expect(users.rows[0]?.n).toBe(1);
  });

  it("stores the confirmation code only as a MAC and enqueues the clear code in the transaction", async () => {
    const email = uniqueEmail();
    const res = await h.users.registerUser({ caller: caller("web", { locale: "es" }), object: userObject(email) });
    const { job, secrets } = h.lastDelivery(email);
    expect(job).toMatchObject({ userId: res.user!.id, channel: "email", to: email, locale: "es", purpose: "register" });
    expect(secrets.code).toMatch(/^\d{6}$/);
    expect(secrets.linkToken.length).toBeGreaterThanOrEqual(43);
    const rows = await h.db.query<Record<string, unknown>>("SELECT * FROM users.confirmations WHERE user_id = $1", [
      res.user!.id,
    ]);
    expect(rows.rows).toHaveLength(1);
    const row = rows.rows[0]!;
    expect(row.id).toBe(job.deliveryId);
    const dump = JSON.stringify(rows.rows);
    expect(dump).not.toContain(secrets.code);
    expect(dump).not.toContain(secrets.linkToken);
    expect(JSON.stringify(job)).not.toContain(secrets.code);
    const ttl = (new Date(row.expires_at as string).getTime() - new Date(row.created_at as string).getTime()) / 1000;
    expect(Math.round(ttl)).toBe(3600);
  });

  it("when the delivery cannot be queued nothing is stored (502 CONFIRMATION_NOT_QUEUED)", async () => {
    const email = uniqueEmail();
    h.failEnqueue = true;
    try {
      const err = await failure(h.users.registerUser({ caller: caller(), object: userObject(email) }));
      expect(err.reason).toBe("CONFIRMATION_NOT_QUEUED");
      expect(err.code).toBe(Code.Unavailable);
    } finally {
      h.failEnqueue = false;
    }
    const ids = await h.db.query("SELECT 1 FROM users.identifiers WHERE value = $1", [email]);
    const conf = await h.db.query("SELECT 1 FROM users.confirmations WHERE value = $1", [email]);
    expect(ids.rowCount + conf.rowCount).toBe(0);
    // The value is free again.
    const ok = await h.users.registerUser({ caller: caller(), object: userObject(email) });
    expect(ok.user?.ids.email?.value).toBe(email);
  });

  it("GetUser answers USER_NOT_FOUND for unknown ids", async () => {
    const err = await failure(h.users.getUser({ userId: "0".repeat(24) }));
    expect(err.code).toBe(Code.NotFound);
    expect(err.reason).toBe("USER_NOT_FOUND");
  });
});
