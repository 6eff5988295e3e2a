import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SoftAuthenticator, type Tamper } from "@gatehouse/testing";
import { ORIGIN, passkeyFlows, type PasskeyFlows } from "./passkey-flows.ts";
import type { TestStack } from "./stack-helpers.ts";
import { loggedUser, loginEnvelope, send, type FlowApp } from "./user-flows.ts";

// Passkeys by API (contract section 12) with a software authenticator the
// test builds (ES256 or RS256 key, attestation `none`): enrolment, list,
// rename, delete, sign-in at /user/access with every wrong variant, and the
// login's checks after the credential (412, 206; no 428). Operators:
// passkeys-operators.test.ts.
describe.each([
  ["PostgreSQL + Redis", false],
  ["the embedded default", true],
])("passkeys on %s", (_name, embedded) => {
  let f: PasskeyFlows;
  let s: TestStack;
  let app: FlowApp;
  beforeAll(async () => {
    f = await passkeyFlows(embedded);
    ({ s, app } = f);
  });
  afterAll(() => s.close());
  const get = (url: string, token: string) => f.get(url, token);
  const del = (url: string, token: string) => f.del(url, token);
  const post = (url: string, token: string, body: unknown, from?: string) => f.post(url, token, body, from);
  const enrolled = () => f.enrolled();
  const envelope = (passkey: unknown, ids?: unknown) => f.envelope(passkey, ids);
  const signIn = (
    auth: SoftAuthenticator,
    t: Tamper = {},
    opts: { ids?: unknown; from?: string; query?: string } = {},
  ) => f.signIn(auth, t, opts);

  it("enrols with creation options of section 12, lists, renames and deletes", async () => {
    const u = await loggedUser(s, app);
    const first = await post("/activityid/v1/user/passkeys/options", u.accessToken, {});
    expect(first.statusCode).toBe(200);
    const options = first.json().content.publicKey;
    expect(options).toMatchObject({
      rp: { id: "gatehouse.test" },
      attestation: "none",
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
      excludeCredentials: [],
    });
    expect(options.pubKeyCredParams.map((p: { alg: number }) => p.alg)).toEqual([-7, -257]);
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The user handle is opaque: neither the object id nor the pulse id.
    expect(options.user.id).not.toContain(String(u.id));
    expect(options.user.name).toBe(u.email);

    const auth = new SoftAuthenticator(ORIGIN, -257); // RS256 too
    const credential = auth.create(options);
    const created = await post("/activityid/v1/user/passkeys", u.accessToken, { name: "Phone", credential });
    expect(created.statusCode).toBe(201);
    const passkey = created.json().content.passkey;
    expect(passkey).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: "Phone",
      created: expect.any(String),
      lastUsed: null,
    });
    // The challenge worked once.
    const again = await post("/activityid/v1/user/passkeys", u.accessToken, { name: "Phone", credential });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors.code).toBe("passkey_invalid");

    const next = (await post("/activityid/v1/user/passkeys/options", u.accessToken, {})).json().content.publicKey;
    expect(next.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([credential.id]);

    const renamed = await send(
      s,
      "PATCH",
      `/activityid/v1/user/passkeys/${passkey.id}`,
      u.accessToken,
      app.entrypoint,
      {
        name: "Work phone",
      },
    );
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().content.passkey.name).toBe("Work phone");
    const listed = await get("/activityid/v1/user/passkeys", u.accessToken);
    expect(listed.json().content.passkeys).toEqual([{ ...passkey, name: "Work phone" }]);

    // Another user's passkey is not there for this one.
    const other = await loggedUser(s, app);
    expect((await del(`/activityid/v1/user/passkeys/${passkey.id}`, other.accessToken)).statusCode).toBe(404);
    // An id that was never a passkey's is unknown too (docs/api.md), whatever its form.
    const unknown = await del("/activityid/v1/user/passkeys/no-such-passkey", u.accessToken);
    expect([unknown.statusCode, unknown.json().errors.code]).toEqual([404, "passkey_not_found"]);
    expect((await del(`/activityid/v1/user/passkeys/${passkey.id}`, u.accessToken)).statusCode).toBe(204);
    expect((await get("/activityid/v1/user/passkeys", u.accessToken)).json().content.passkeys).toEqual([]);
    // Its sign-in now fails like a wrong password.
    expect((await signIn(auth)).statusCode).toBe(403);
  });

  it("refuses an enrolment from another origin, RP id or without user verification", async () => {
    const u = await loggedUser(s, app);
    for (const t of [{ origin: "http://evil.test" }, { rpId: "evil.test" }, { uv: false }] as Tamper[]) {
      const options = (await post("/activityid/v1/user/passkeys/options", u.accessToken, {})).json().content.publicKey;
      const res = await post("/activityid/v1/user/passkeys", u.accessToken, {
        credential: new SoftAuthenticator(ORIGIN).create(options, t),
      });
      expect(res.statusCode, JSON.stringify(t)).toBe(400);
      expect(res.json().errors.code).toBe("passkey_invalid");
    }
    // No access token: 401; an APP_TOKEN is not a user's.
    expect((await post("/activityid/v1/user/passkeys/options", app.token, {})).statusCode).toBe(401);
  });

  it("starts an enrolment and a sign-in from a POST without a body (docs/api.md: `{}` or none)", async () => {
    const u = await loggedUser(s, app);
    const bare = (url: string, token: string, headers: Record<string, string> = {}) =>
      s.app.inject({
        method: "POST",
        url,
        headers: { authorization: `Bearer ${token}`, from: app.entrypoint, ...headers },
      });
    for (const headers of [{}, { "content-type": "application/json" }] as Record<string, string>[]) {
      const options = await bare("/activityid/v1/user/passkeys/options", u.accessToken, headers);
      expect([options.statusCode, options.json().content?.publicKey?.challenge]).toEqual([200, expect.any(String)]);
      const started = await bare("/activityid/v1/user/access/passkey", app.token, headers);
      expect([started.statusCode, started.json().content?.token]).toEqual([200, expect.any(String)]);
    }
    const member = await post("/activityid/v1/user/access/passkey", app.token, { extra: 1 }, app.entrypoint);
    expect([member.statusCode, member.json().errors.items[0]]).toEqual([
      400,
      expect.objectContaining({ field: "extra" }),
    ]);
  });

  it("signs in without identifier, with TOTP on and no 428, and records the use", async () => {
    const u = await enrolled();
    const started = await post("/activityid/v1/user/access/passkey", app.token, {});
    expect(started.json().content.publicKey).toMatchObject({
      rpId: "gatehouse.test",
      userVerification: "required",
      allowCredentials: [],
    });
    const res = await signIn(u.auth);
    expect(res.statusCode).toBe(200);
    expect(res.json().content.user.id).toBe(u.id);
    expect(res.json().content.session_info.login_status.uid).toBe(u.id);
    // TOTP on: a user-verified passkey is two factors.
    const totp = await post("/activityid/v1/user/mfa/totp", u.accessToken, {});
    expect(totp.statusCode).toBe(200);
    const { totpCode } = await import("@gatehouse/users");
    await post("/activityid/v1/user/mfa/totp/confirm", u.accessToken, {
      code: totpCode(totp.json().content.totp.secret),
    });
    expect((await post("/activityid/v1/user/access", app.token, loginEnvelope(app, u.email))).statusCode).toBe(428);
    expect((await signIn(u.auth)).statusCode).toBe(200);
    // With the right identifier too.
    expect((await signIn(u.auth, {}, { ids: { email: { objectType: "user_id", value: u.email } } })).statusCode).toBe(
      200,
    );
    const [listed] = (await get("/activityid/v1/user/passkeys", u.accessToken)).json().content.passkeys;
    expect(listed.lastUsed).toEqual(expect.any(String));
  });

  it("answers 403 like a wrong password for each wrong assertion, and the login limits count them", async () => {
    const u = await enrolled();
    const other = await loggedUser(s, app);
    const wrongPassword = await post(
      "/activityid/v1/user/access",
      app.token,
      loginEnvelope(app, other.email, "wrong password!"),
    );
    expect(wrongPassword.statusCode).toBe(403);
    const cases: [string, Tamper, { ids?: unknown }?][] = [
      ["origin", { origin: "http://evil.test" }],
      ["RP id", { rpId: "evil.test" }],
      ["challenge", { challenge: "A".repeat(43) }],
      ["signature", { wrongKey: true }],
      ["user verification", { uv: false }],
    ];
    for (const [what, t, opts] of cases) {
      const res = await signIn(u.auth, t, opts);
      expect(res.statusCode, what).toBe(403);
      expect(res.json().errors, what).toEqual(wrongPassword.json().errors);
    }
    // Five failures from this address: the sixth attempt waits, even a right one (429 with Retry-After).
    const limited = await signIn(u.auth);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["retry-after"]).toBeDefined();
  });

  it("refuses a replayed token and a counter that goes backwards", async () => {
    const u = await enrolled();
    const started = await post("/activityid/v1/user/access/passkey", app.token, {});
    const { publicKey, token } = started.json().content;
    const credential = u.auth.get(publicKey, { counter: 5 });
    expect((await post("/activityid/v1/user/access", app.token, envelope({ token, credential }))).statusCode).toBe(200);
    expect((await post("/activityid/v1/user/access", app.token, envelope({ token, credential }))).statusCode).toBe(403);
    expect((await signIn(u.auth, { counter: 3 })).statusCode).toBe(403);
    expect((await signIn(u.auth, { counter: 9 })).statusCode).toBe(200);
    // An identifier sent with the passkey must be its user's.
    const other = await loggedUser(s, app);
    const named = await signIn(u.auth, {}, { ids: { email: { objectType: "user_id", value: other.email } } });
    expect(named.statusCode).toBe(403);
    expect(named.json().errors.code).toBe("invalid_credentials");
    // Options of one entry point do not sign in at another.
    const profileEp = `${app.id}_profile`;
    const elsewhere = await post("/activityid/v1/user/access/passkey", app.token, {}, profileEp);
    const c2 = u.auth.get(elsewhere.json().content.publicKey);
    expect(
      (
        await post(
          "/activityid/v1/user/access",
          app.token,
          envelope({ token: elsewhere.json().content.token, credential: c2 }),
        )
      ).statusCode,
    ).toBe(403);
  });

  it("runs the login's checks after the passkey: 206 with fca, 412 for an unconfirmed main id", async () => {
    const u = await enrolled();
    const profileEp = `${app.id}_profile`;
    const incomplete = await signIn(u.auth, {}, { from: profileEp, query: "?fca=true" });
    expect(incomplete.statusCode).toBe(206);
    expect(incomplete.json().errors.items.map((i: { field: string }) => i.field)).toContain("object.datas.birthday");
    await s.stores.db.query(`UPDATE users.identifiers SET confirmed = false WHERE user_id = $1`, [String(u.id)]);
    const unconfirmed = await signIn(u.auth);
    expect(unconfirmed.statusCode).toBe(412);
  });

  it("rejects malformed passkey logins with 400", async () => {
    const bad = await post("/activityid/v1/user/access", app.token, envelope({ token: "x", credential: { id: "y" } }));
    expect(bad.statusCode).toBe(400);
    const both = await post("/activityid/v1/user/access", app.token, {
      ...envelope({ token: "x", credential: { id: "y", response: {} } }),
      object: { objectType: "user", password: "p", passkey: { token: "x", credential: { id: "y", response: {} } } },
    });
    expect(both.statusCode).toBe(400);
    const unknown = await post(
      "/activityid/v1/user/access",
      app.token,
      envelope({ token: "x", credential: { id: "y", response: {} } }),
    );
    expect(unknown.statusCode).toBe(403);
  });
});
