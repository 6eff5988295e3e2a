import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Base64url } from "@gatehouse/secrets";
import { totpSteps, type TotpSteps } from "@gatehouse/testing";
import { totpCode } from "@gatehouse/users";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import {
  createApp,
  loggedUser,
  loginEnvelope,
  outboxLinks,
  PASSWORD,
  registerEnvelope,
  send,
  SOURCE,
  type FlowApp,
  type LoggedUser,
} from "./user-flows.ts";

// MFA (TOTP, 428 at login, /access/mfa, step-up on replace/patch), logout and
// connect_state, and the admin PATCH of an application's settings, end to end.
describe.each([
  ["PostgreSQL + Redis + BullMQ", false],
  ["the embedded default", true],
])("MFA, logout and app settings on %s", (_name, embedded) => {
  let s: TestStack;
  let app: FlowApp;
  beforeAll(async () => {
    s = await startTestStack({ embedded });
    app = await createApp(s, "shop", (body) => {
      // A second entry point that asks for more data (fca → 206).
      body.entrypoints.push({
        objectType: "entrypoint",
        displayName: "Profile",
        key: "profile",
        fields: [
          {
            objectType: "fieldConfig",
            type: "id",
            key: "email",
            main: true,
            mandatory: true,
            requiresConfirmation: true,
          },
          { objectType: "fieldConfig", type: "field", key: "name" },
          { objectType: "fieldConfig", type: "field", key: "birthday", mandatory: true },
        ],
        typology: body.entrypoints[0].typology,
      });
    });
  });
  afterAll(() => s.close());

  const STEP = 30_000;
  const code = (secret: string, steps = 0) => totpCode(secret, Date.now() + steps * STEP);
  const post = (url: string, token: string, body: unknown, from = app.entrypoint) =>
    send(s, "POST", url, token, from, body);
  const login = (email: string, query = "", from = app.entrypoint) =>
    post(`/activityid/v1/user/access${query}`, app.token, loginEnvelope(app, email), from);
  const finish = (token: string, c: string | undefined, query = "", from = app.entrypoint) =>
    post(`/activityid/v1/user/access/mfa${query}`, app.token, c === undefined ? { token } : { token, code: c }, from);

  /** A logged user with TOTP on: its secret, codes of steps not yet spent, the code that confirmed it and the recovery codes. */
  async function mfaUser(): Promise<
    LoggedUser & { secret: string; totp: TotpSteps; confirmedWith: string; recovery: string[] }
  > {
    const u = await loggedUser(s, app);
    const enrolled = await post("/activityid/v1/user/mfa/totp", u.accessToken, {});
    expect(enrolled.statusCode).toBe(200);
    const { secret, otpauth_url } = enrolled.json().content.totp;
    expect(otpauth_url).toMatch(/^otpauth:\/\/totp\//);
    expect(otpauth_url).toContain(`secret=${secret}`);
    // Not on before the confirmation: the login is not interrupted.
    expect((await login(u.email)).statusCode).toBe(200);
    const totp = totpSteps((at) => totpCode(secret, at));
    const confirmedWith = totp.fresh();
    const confirmed = await post("/activityid/v1/user/mfa/totp/confirm", u.accessToken, { code: confirmedWith });
    expect(confirmed.statusCode).toBe(200);
    const recovery = confirmed.json().content.mfa.recovery_codes as string[];
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    return { ...u, secret, totp, confirmedWith, recovery };
  }

  async function mfaToken(email: string, query = "", from = app.entrypoint): Promise<string> {
    const res = await login(email, query, from);
    expect(res.statusCode).toBe(428);
    const body = res.json();
    expect(body.result.status).toBe(428);
    expect(body.errors.code).toBe("mfa_required");
    expect(typeof body.errors.message).toBe("string");
    expect(body.content.mfa.methods).toEqual(["totp"]);
    expect(body.content.mfa.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.content.session_info).toBeUndefined();
    return body.content.mfa.token;
  }

  it("enrolment and confirmation turn TOTP on; login answers 428 and /access/mfa with the right code opens the session", async () => {
    const u = await mfaUser();
    const token = await mfaToken(u.email);
    const ok = await finish(token, u.totp.fresh());
    expect(ok.statusCode).toBe(200);
    const content = ok.json().content;
    expect(content.user.id).toBe(u.id);
    expect(content.session_info.login_status).toEqual({ uid: u.id, connect_state: "connected" });
    expect(typeof content.session_info.access_token).toBe("string");
    // The token is single use.
    const again = await finish(token, code(u.secret, -1));
    expect(again.statusCode).toBe(403);
    expect(again.json().errors.code).toBe("mfa_token_invalid");
    // Enrolling again while on is a conflict.
    expect((await post("/activityid/v1/user/mfa/totp", u.accessToken, {})).statusCode).toBe(409);
  });

  it("enrolment and logout take a POST without a body, with or without a JSON content type (none is named)", async () => {
    for (const headers of [{}, { "content-type": "application/json" }]) {
      const u = await loggedUser(s, app);
      const res = await s.app.inject({
        method: "POST",
        url: "/activityid/v1/user/mfa/totp",
        headers: { authorization: `Bearer ${u.accessToken}`, from: app.entrypoint, ...headers },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().content.totp.otpauth_url).toMatch(/^otpauth:\/\/totp\//);
      // So does the logout.
      const out = await s.app.inject({
        method: "POST",
        url: "/activityid/v1/user/logout",
        headers: { authorization: `Bearer ${u.accessToken}`, from: app.entrypoint, ...headers },
      });
      expect(out.statusCode, out.body).toBe(200);
    }
  });

  it("a wrong code is 403 and leaves the token alive; a replayed time step is refused; an expired token is refused", async () => {
    const u = await mfaUser();
    const token = await mfaToken(u.email);
    const wrong = await finish(token, code(u.secret, 5));
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().errors.code).toBe("mfa_code_invalid");
    expect(wrong.json().errors.items).toEqual([expect.objectContaining({ field: "code", code: "invalid_value" })]);
    // The step that confirmed the enrolment cannot be used again.
    expect((await finish(token, u.confirmedWith)).statusCode).toBe(403);
    const right = u.totp.fresh();
    expect((await finish(token, right)).statusCode).toBe(200);
    // Replay of the same code on a new login attempt.
    const next = await mfaToken(u.email);
    const replay = await finish(next, right);
    expect(replay.statusCode).toBe(403);
    expect(replay.json().errors.code).toBe("mfa_code_invalid");
    // Expiry (5 min in the store): the token's entry is gone.
    const third = await mfaToken(u.email);
    await s.stores.kv.del(`users:mfa:token:${sha256Base64url(third)}`);
    const expired = await finish(third, code(u.secret, -1));
    expect(expired.statusCode).toBe(403);
    expect(expired.json().errors.code).toBe("mfa_token_invalid");
    // A token from another entry point's login is refused here.
    const other = await mfaToken(u.email);
    expect((await finish(other, code(u.secret, -1), "", `${app.id}_profile`)).statusCode).toBe(403);
  });

  it("a recovery code works once", async () => {
    const u = await mfaUser();
    const token = await mfaToken(u.email);
    expect((await finish(token, u.recovery[0]!.toUpperCase())).statusCode).toBe(200);
    const second = await mfaToken(u.email);
    expect((await finish(second, u.recovery[0]!)).statusCode).toBe(403);
    expect((await finish(second, u.recovery[1]!)).statusCode).toBe(200);
  });

  it("parallel code guesses are counted before they are checked: 5 per token, then the token dies", async () => {
    const u = await mfaUser();
    const token = await mfaToken(u.email);
    const guesses = await Promise.all(Array.from({ length: 12 }, (_, i) => finish(token, String(100000 + i))));
    const codes = guesses.map((g) => g.json().errors.code);
    expect(guesses.every((g) => g.statusCode === 403)).toBe(true);
    expect(codes.filter((c) => c === "mfa_code_invalid").length).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c === "mfa_token_invalid").length).toBeGreaterThanOrEqual(7);
    // Dead: even the right code cannot use it now.
    const late = await finish(token, code(u.secret, 1));
    expect(late.statusCode).toBe(403);
    expect(late.json().errors.code).toBe("mfa_token_invalid");
  });

  it("fca: 206 after the 428 is cleared, from the login's fca or the mfa route's", async () => {
    const u = await mfaUser();
    const profile = `${app.id}_profile`;
    const token = await mfaToken(u.email, "?fca=true", profile);
    const res = await finish(token, u.totp.fresh(), "", profile);
    expect(res.statusCode).toBe(206);
    const body = res.json();
    expect(body.result.status).toBe(206);
    expect(body.errors.items).toEqual([expect.objectContaining({ field: "object.datas.birthday", code: "required" })]);
    expect(body.content.session_info.login_status.connect_state).toBe("connected");
    const second = await mfaToken(u.email, "", profile);
    expect((await finish(second, u.totp.fresh(), "?fca=true", profile)).statusCode).toBe(206);
  });

  it("replace/patch changing email or password answers 428 without a fresh code, and goes through with one", async () => {
    const u = await mfaUser();
    const patchBody = (object: Record<string, unknown>) => ({
      actor: { id: String(u.id), objectType: "person" },
      verb: "update",
      object: { objectType: "user", password: PASSWORD, ...object },
      source: SOURCE,
    });
    const patch = (object: Record<string, unknown>) =>
      send(s, "PATCH", `/activityid/v1/user/update/${u.id}`, u.accessToken, app.entrypoint, patchBody(object));
    const next = `m${Date.now()}@example.com`;
    const email = { email: { objectType: "user_id", value: next } };
    const asked = await patch({ ids: email });
    expect(asked.statusCode).toBe(428);
    expect(asked.json().errors.code).toBe("mfa_required");
    expect(asked.json().content.mfa).toEqual({ methods: ["totp"] });
    expect(asked.json().errors.items).toEqual([expect.objectContaining({ field: "object.mfaCode", code: "required" })]);
    const wrong = await patch({ ids: email, mfaCode: "000000" });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().errors.code).toBe("mfa_code_invalid");
    // Data that does not protect the account needs no code.
    expect((await patch({ datas: { birthday: { objectType: "data", value: "1990-01-01" } } })).statusCode).toBe(200);
    const done = await patch({ ids: email, mfaCode: u.totp.fresh() });
    expect(done.statusCode).toBe(206);
    expect(done.json().content.user.ids.email.pending.value).toBe(next);
    // A new password too; replace (POST /update) is guarded the same way.
    const replace = (object: Record<string, unknown>) =>
      post("/activityid/v1/user/update", u.accessToken, {
        actor: { id: app.id, objectType: "application" },
        verb: "create",
        object: {
          objectType: "user",
          password: PASSWORD,
          ids: { email: { objectType: "user_id", value: u.email } },
          datas: { name: { objectType: "data", value: "Ana" } },
          assertions: {},
          ...object,
        },
        source: SOURCE,
      });
    expect((await replace({ newPassword: "another good passphrase" })).statusCode).toBe(428);
    expect((await replace({ newPassword: "another good passphrase", mfaCode: u.recovery[0] })).statusCode).toBe(200);
  });

  it("disable needs the password (or a code); afterwards the login is not interrupted", async () => {
    const u = await mfaUser();
    const disable = (body: unknown) => post("/activityid/v1/user/mfa/totp/disable", u.accessToken, body);
    expect((await disable({})).statusCode).toBe(400);
    expect((await disable({ password: "not the password" })).statusCode).toBe(403);
    const off = await disable({ password: PASSWORD });
    expect(off.statusCode).toBe(200);
    expect((await disable({ password: PASSWORD })).statusCode).toBe(409);
    expect((await login(u.email)).statusCode).toBe(200);
    expect((await post("/activityid/v1/user/mfa/totp/confirm", "not-a-token", { code: "123456" })).statusCode).toBe(
      401,
    );
  });

  it("logout ends the session: notConnected, the refresh token and the access token stop working", async () => {
    const email = `lo${Date.now()}@example.com`;
    await loggedUser(s, app, email);
    const res = await login(email);
    const info = res.json().content.session_info;
    const out = await post("/activityid/v1/user/logout", info.access_token, {});
    expect(out.statusCode).toBe(200);
    expect(out.json().content.login_status).toEqual({ uid: res.json().content.user.id, connect_state: "notConnected" });
    const refresh = await s.app.inject({
      method: "POST",
      url: "/oauth2/token",
      headers: { authorization: s.basic(app.id, app.password), "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ grant_type: "refresh_token", refresh_token: info.refresh_token }).toString(),
    });
    expect(refresh.statusCode).toBe(400);
    expect(refresh.json().error).toBe("invalid_grant");
    expect((await post("/activityid/v1/user/logout", info.access_token, {})).statusCode).toBe(401);
    expect((await post("/activityid/v1/user/mfa/totp", info.access_token, {})).statusCode).toBe(401);
    // An APP_TOKEN is not a user's session.
    expect((await post("/activityid/v1/user/logout", app.token, {})).statusCode).toBe(401);
  });

  describe("application settings (PATCH /admin/v1/apps/{client_id})", () => {
    const patchApp = async (id: string, body: unknown, token?: string | null) =>
      s.app.inject({
        method: "PATCH",
        url: `/admin/v1/apps/${id}`,
        headers: {
          ...(token === null ? {} : { authorization: `Bearer ${token ?? (await s.operatorToken())}` }),
          "content-type": "application/json",
        },
        payload: JSON.stringify(body),
      });

    it("200 with the settings; 400 per field; 401; 403 without the admin scope; 404", async () => {
      const a = await createApp(s, "settings");
      const ok = await patchApp(a.id, {
        whitelist: ["https://shop.example.com/done", "http://localhost:3000/cb"],
        mfa: "optional",
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().content).toMatchObject({
        id: a.id,
        whitelist: ["https://shop.example.com/done", "http://localhost:3000/cb"],
        defaultCallback: "",
        mfa: "optional",
      });
      // Only what is sent changes.
      const cb = await patchApp(a.id, { defaultCallback: "https://shop.example.com/welcome" });
      expect(cb.json().content).toMatchObject({
        whitelist: ["https://shop.example.com/done", "http://localhost:3000/cb"],
        defaultCallback: "https://shop.example.com/welcome",
        mfa: "optional",
      });

      const bad = await patchApp(a.id, {
        whitelist: ["http://shop.example.com/x", "https://a.example.com/#frag", "/relative"],
        defaultCallback: "javascript:alert(1)",
        mfa: "sometimes",
      });
      expect(bad.statusCode).toBe(400);
      expect(
        bad
          .json()
          .errors.items.map((i: { field: string }) => i.field)
          .sort(),
      ).toEqual(["defaultCallback", "mfa", "whitelist.0", "whitelist.1", "whitelist.2"]);
      const many = await patchApp(a.id, {
        whitelist: Array.from({ length: 51 }, (_, i) => `https://shop.example.com/${i}`),
      });
      expect(many.statusCode).toBe(400);
      expect(many.json().errors.items[0]).toMatchObject({ field: "whitelist", code: "too_many" });
      expect((await patchApp(a.id, { unknown: 1 })).statusCode).toBe(400);

      expect((await patchApp(a.id, { mfa: "off" }, null)).statusCode).toBe(401);
      expect((await patchApp(a.id, { mfa: "off" }, "not-a-token")).statusCode).toBe(401);
      expect((await patchApp(a.id, { mfa: "off" }, await s.operatorToken("apps:write"))).statusCode).toBe(403);
      expect((await patchApp(a.id, { mfa: "off" }, a.token)).statusCode).toBe(403);
      expect((await patchApp("999999999999", { mfa: "off" })).statusCode).toBe(404);
      const audit = await s.stores.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM registry.audit_log WHERE action = 'application.update' AND target = $1",
        [a.id],
      );
      expect(audit.rows[0]!.n).toBe(2);
    });

    it("the confirmation link lands on the application's default callback without a whitelisted context.url", async () => {
      const a = await createApp(s, "landing");
      expect((await patchApp(a.id, { defaultCallback: "https://shop.example.com/welcome" })).statusCode).toBe(200);
      const email = `land${Date.now()}@example.com`;
      expect(
        (await send(s, "POST", "/activityid/v1/user/register", a.token, a.entrypoint, registerEnvelope(a, email)))
          .statusCode,
      ).toBe(201);
      const [link] = await outboxLinks(s, email);
      const res = await s.app.inject({ method: "GET", url: `/activityid/v1/user/confirm?token=${link}` });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe("https://shop.example.com/welcome");
    });

    it("policy `required` without a factor: 428 with an enrolment indication; the MFA token enrols and then finishes the login", async () => {
      const a = await createApp(s, "strict");
      expect((await patchApp(a.id, { mfa: "required" })).statusCode).toBe(200);
      const email = `req${Date.now()}@example.com`;
      expect(
        (await send(s, "POST", "/activityid/v1/user/register", a.token, a.entrypoint, registerEnvelope(a, email)))
          .statusCode,
      ).toBe(201);
      const [link] = await outboxLinks(s, email);
      expect((await s.app.inject({ method: "GET", url: `/activityid/v1/user/confirm?token=${link}` })).statusCode).toBe(
        302,
      );
      const res = await send(s, "POST", "/activityid/v1/user/access", a.token, a.entrypoint, loginEnvelope(a, email));
      expect(res.statusCode).toBe(428);
      const mfa = res.json().content.mfa;
      expect(mfa).toMatchObject({ methods: ["totp"], enroll: true });
      // Finishing without a factor asks for the enrolment again.
      const early = await send(s, "POST", "/activityid/v1/user/access/mfa", a.token, a.entrypoint, {
        token: mfa.token,
        code: "123456",
      });
      expect(early.statusCode).toBe(428);
      expect(early.json().content.mfa.enroll).toBe(true);
      // Another application's token cannot use it.
      expect(
        (await send(s, "POST", "/activityid/v1/user/mfa/totp", app.token, app.entrypoint, { token: mfa.token }))
          .statusCode,
      ).toBe(403);
      const enrolled = await send(s, "POST", "/activityid/v1/user/mfa/totp", a.token, a.entrypoint, {
        token: mfa.token,
      });
      expect(enrolled.statusCode).toBe(200);
      const secret = enrolled.json().content.totp.secret;
      const confirmed = await send(s, "POST", "/activityid/v1/user/mfa/totp/confirm", a.token, a.entrypoint, {
        token: mfa.token,
        code: code(secret),
      });
      expect(confirmed.statusCode).toBe(200);
      const done = await send(s, "POST", "/activityid/v1/user/access/mfa", a.token, a.entrypoint, { token: mfa.token });
      expect(done.statusCode).toBe(200);
      expect(done.json().content.session_info.login_status.connect_state).toBe("connected");
      // From now on the login asks for a code, not for an enrolment.
      const next = await send(s, "POST", "/activityid/v1/user/access", a.token, a.entrypoint, loginEnvelope(a, email));
      expect(next.statusCode).toBe(428);
      expect(next.json().content.mfa.enroll).toBeUndefined();
    });
  });
});
