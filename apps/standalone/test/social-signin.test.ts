import { startUpstreamIdp, type UpstreamIdp } from "@gatehouse/testing/upstream-idp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { admin, audit, OPERATOR_ACTOR } from "./admin-flows.ts";
import { exchange, REDIRECT } from "./oauth-flow.ts";
import { CALLBACK, codeOf, hiddenOf, loginPage, postForm, registerProvider, socialSignIn } from "./social-flows.ts";
import { startTestStack, validApplication, type TestStack } from "./stack-helpers.ts";
import { createApp, loggedUser, outboxCode, PASSWORD, type FlowApp } from "./user-flows.ts";

// Social sign-in (contract section 11) end to end against a REAL OpenID
// Connect provider (oidc-provider on loopback): every resolution branch and
// the failures, on PostgreSQL + Redis and on the embedded default. The
// browser's part is plain HTTP here; social-browser.test.ts drives Chromium.

const subjectOf = (accessToken: string) =>
  JSON.parse(Buffer.from(accessToken.split(".")[1]!, "base64url").toString()).sub as string;

describe.each([
  ["PostgreSQL + Redis", false],
  ["the embedded default", true],
])("social sign-in on %s", (_name, embedded) => {
  let s: TestStack;
  let idp: UpstreamIdp;
  let app: FlowApp;
  let more: string;
  let n = 0;
  const login = () => `ana${++n}${Date.now().toString(36)}`;

  beforeAll(async () => {
    idp = await startUpstreamIdp([CALLBACK]);
    s = await startTestStack({ embedded, env: { IDP_TIMEOUT_MS: "3000" } });
    await registerProvider(s, idp, "up");
    await registerProvider(s, idp, "trusted", { trustEmail: true, displayName: "Trusted ID" });
    // Used only by the test of a token signed by another key: its configuration (and JWKS) is read then.
    await registerProvider(s, idp, "keyed");
    app = await createApp(s, "social", (b) => {
      b.entrypoints[0].identityProviders = ["up", "trusted", "keyed"];
      const extra = structuredClone(validApplication().entrypoints[0]);
      extra.key = "more";
      extra.identityProviders = ["up"];
      extra.fields.push({ objectType: "fieldConfig", type: "field", key: "gender", mandatory: true });
      b.entrypoints.push(extra);
    });
    more = `${app.id}_more`;
  });
  afterAll(async () => {
    await s.close();
    await idp.close();
  });
  beforeEach(() => {
    for (const k of Object.keys(idp.tamper)) delete idp.tamper[k as keyof typeof idp.tamper];
  });

  const tokensOf = async (code: string, verifier: string) => {
    const res = await exchange(s, app, { code, code_verifier: verifier });
    expect(res.statusCode).toBe(200);
    return res.json() as { access_token: string; id_token: string };
  };
  const adminUser = async (id: string) =>
    (await admin(s, "GET", `/admin/v1/users/${id}`, { scope: "admin:read" })).json().content.user;

  it("shows one button per offered provider on the login and registration pages (a submit named idp)", async () => {
    const { page } = await loginPage(s, app, app.entrypoint);
    expect(page.body).toContain('name="idp" value="up"');
    expect(page.body).toContain("Continue with Upstream ID");
    expect(page.body).toContain('name="idp" value="trusted"');
    const es = await loginPage(s, app, app.entrypoint, { ui_locales: "es", prompt: "create" });
    expect(es.page.body).toContain("Continuar con Trusted ID");
    // A provider changed by an operator shows at once (the registry's notice drops the cached names, section 16).
    const renamed = await admin(s, "PATCH", "/admin/v1/identity-providers/trusted", {
      body: { displayName: "Trusted ID Two" },
    });
    expect(renamed.statusCode).toBe(200);
    expect((await loginPage(s, app, app.entrypoint)).page.body).toContain("Continue with Trusted ID Two");
    await admin(s, "PATCH", "/admin/v1/identity-providers/trusted", { body: { displayName: "Trusted ID" } });
  });

  it("first sign-in with a verified email registers (confirmed, no password, datas mapped); the second signs in the same user", async () => {
    const who = login();
    const email = `${who}@example.com`;
    idp.accounts.set(who, { email, email_verified: true, given_name: "Ana", family_name: "García" });
    const first = await socialSignIn(s, app, app.entrypoint, "up", who);
    const t1 = await tokensOf(codeOf(first.res), first.verifier);
    const user = await adminUser(subjectOf(t1.access_token));
    expect(user.ids.email).toMatchObject({ value: email, confirmed: true });
    expect(user.datas.name.value).toBe("Ana");
    expect(user.identities).toEqual([{ provider: "up", subject: who, email, linked: expect.any(String) }]);
    const second = await socialSignIn(s, app, app.entrypoint, "up", who);
    const t2 = await tokensOf(codeOf(second.res), second.verifier);
    expect(subjectOf(t2.access_token)).toBe(subjectOf(t1.access_token));
  });

  it("an unverified email registers the user and asks for the confirmation code (section 8) before the code", async () => {
    const who = login();
    const email = `${who}@example.com`;
    idp.accounts.set(who, { email, email_verified: false, given_name: "Bea" });
    const { res, csrf } = await socialSignIn(s, app, app.entrypoint, "up", who);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('name="code"');
    const code = await outboxCode(s, email);
    const done = await postForm(s, csrf, { ...hiddenOf(res.body), code });
    expect(codeOf(done)).toBeTruthy();
  });

  it("an existing account with the same email links only after its password; a trusted provider's verified email links at once", async () => {
    const user = await loggedUser(s, app);
    const who = login();
    idp.accounts.set(who, { email: user.email, email_verified: true });
    const asked = await socialSignIn(s, app, app.entrypoint, "up", who);
    expect(asked.res.statusCode).toBe(200);
    expect(asked.res.body).toContain("already exists");
    expect((await adminUser(String(user.id))).identities).toEqual([]);
    const linkToken = /name="link_token" value="([^"]+)"/.exec(asked.res.body)![1]!;
    const form = /name="form_token" value="([^"]+)"/.exec(asked.res.body)![1]!;
    const wrong = await postForm(s, asked.csrf, {
      form_token: form,
      link_token: linkToken,
      email: user.email,
      password: "wrong one!!",
    });
    expect(wrong.statusCode).toBe(401);
    expect((await adminUser(String(user.id))).identities).toEqual([]);
    const proven = await postForm(s, asked.csrf, {
      form_token: form,
      link_token: linkToken,
      email: user.email,
      password: PASSWORD,
    });
    codeOf(proven);
    expect((await adminUser(String(user.id))).identities.map((i: { provider: string }) => i.provider)).toEqual(["up"]);
    const linked = (await audit(s, { target: String(user.id) })).filter((e) => e.action === "user.identity.link");
    expect(linked).toMatchObject([{ actor: `user:${user.id}`, details: { provider: "up", via: "proof" } }]);

    const other = await loggedUser(s, app);
    const who2 = login();
    idp.accounts.set(who2, { email: other.email, email_verified: true });
    const trusted = await socialSignIn(s, app, app.entrypoint, "trusted", who2);
    const t = await tokensOf(codeOf(trusted.res), trusted.verifier);
    expect(subjectOf(t.access_token)).toBe(String(other.id));
    const byTrust = await audit(s, { target: String(other.id), action: "user.identity.link" });
    expect(byTrust).toMatchObject([{ details: { provider: "trusted", via: "trusted_email" } }]);
    // Not verified: even a trusted provider's email does not link without proof.
    const third = await loggedUser(s, app);
    const who3 = login();
    idp.accounts.set(who3, { email: third.email, email_verified: false });
    expect((await socialSignIn(s, app, app.entrypoint, "trusted", who3)).res.body).toContain("already exists");
  });

  it("missing mandatory fields are asked on the registration page before the account exists (no password input)", async () => {
    const who = login();
    const email = `${who}@example.com`;
    idp.accounts.set(who, { email, email_verified: true, given_name: "Carla" });
    const { res, csrf } = await socialSignIn(s, app, more, "up", who);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('name="upstream_token"');
    expect(res.body).toContain('name="gender"');
    expect(res.body).not.toContain('name="password"');
    const byEmail = await admin(s, "GET", `/admin/v1/users?q=${encodeURIComponent(email)}`, { scope: "admin:read" });
    expect(byEmail.json().content.items).toEqual([]);
    const token = /name="upstream_token" value="([^"]+)"/.exec(res.body)![1]!;
    const form = /name="form_token" value="([^"]+)"/.exec(res.body)![1]!;
    const done = await postForm(s, csrf, {
      form_token: form,
      intent: "register",
      upstream_token: token,
      email,
      name: "Carla",
      gender: "female",
    });
    codeOf(done);
    const found = (
      await admin(s, "GET", `/admin/v1/users?q=${encodeURIComponent(email)}`, { scope: "admin:read" })
    ).json();
    expect(found.content.items).toHaveLength(1);
  });

  it("failures (tampered state, access_denied, wrong nonce, a token signed by another key) create nothing and say so", async () => {
    const who = login();
    const email = `${who}@example.com`;
    idp.accounts.set(who, { email, email_verified: true, given_name: "Dana" });
    const tampered = await socialSignIn(s, app, app.entrypoint, "up", who, {
      tamper: (url) => url.replace(/state=[^&]+/, "state=forged"),
    });
    expect(tampered.res.statusCode).toBe(400);
    expect(tampered.res.body).toContain("Start again");
    const denied = await socialSignIn(s, app, app.entrypoint, "up", who, { abort: true });
    expect(denied.res.statusCode).toBe(400);
    expect(denied.res.body).toContain("cancelled");
    idp.tamper.nonce = "another-nonce";
    const nonce = await socialSignIn(s, app, app.entrypoint, "up", who);
    expect(nonce.res.statusCode).toBe(400);
    delete idp.tamper.nonce;
    // A provider key of its own: a fresh configuration, whose JWKS is now another key's.
    idp.tamper.jwksOfAnotherKey = true;
    const keyed = await socialSignIn(s, app, app.entrypoint, "keyed", who);
    expect(keyed.res.statusCode).toBe(400);
    const found = await admin(s, "GET", `/admin/v1/users?q=${encodeURIComponent(email)}`, { scope: "admin:read" });
    expect(found.json().content.items).toEqual([]);
    // Each failure is audited: the reason, the provider, the entry point; nothing personal.
    const failures = (await audit(s, { target: "up" })).filter((e) => e.action === "social_sign_in.fail");
    expect(failures.map((e) => e.details.reason)).toEqual(
      expect.arrayContaining(["invalid_state", "provider_error", "invalid_token"]),
    );
    expect(failures[0]).toMatchObject({ actor: `client:${app.id}`, details: { entrypointId: app.entrypoint } });
    expect(JSON.stringify(failures)).not.toContain(email);
  });

  it("every interruption still applies: with the application's MFA policy required, the provider leads to the TOTP enrolment (428)", async () => {
    const strict = await createApp(s, "socialmfa", (b) => (b.entrypoints[0].identityProviders = ["up"]));
    const set = await admin(s, "PATCH", `/admin/v1/apps/${strict.id}`, { body: { mfa: "required" } });
    expect(set.statusCode).toBe(200);
    const who = login();
    idp.accounts.set(who, { email: `${who}@example.com`, email_verified: true, given_name: "Fay" });
    const { res } = await socialSignIn(s, strict, strict.entrypoint, "up", who);
    expect(res.statusCode).toBe(200);
    expect(hiddenOf(res.body).intent).toBe("enrol");
    expect(res.body).toContain("<svg");
  });

  it("a callback without this browser's cookie finishes nothing; the user unlinks a provider (204, then 404)", async () => {
    const lost = await s.app.inject({ method: "GET", url: "/oauth2/idp/callback?code=x&state=y" });
    expect(lost.statusCode).toBe(400);
    const who = login();
    idp.accounts.set(who, { email: `${who}@example.com`, email_verified: true, given_name: "Eva" });
    const done = await socialSignIn(s, app, app.entrypoint, "up", who);
    const t = await tokensOf(codeOf(done.res), done.verifier);
    const unlink = () =>
      s.app.inject({
        method: "DELETE",
        url: "/activityid/v1/user/identities/up",
        headers: { authorization: `Bearer ${t.access_token}`, accept: "application/json" },
      });
    expect((await unlink()).statusCode).toBe(204);
    const again = await unlink();
    expect([again.statusCode, again.json().errors.code]).toEqual([404, "identity_not_linked"]);
    expect((await adminUser(subjectOf(t.access_token))).identities).toEqual([]);
    expect(REDIRECT).toBeTruthy();
    const unlinked = await audit(s, { target: subjectOf(t.access_token), action: "user.identity.unlink" });
    expect(unlinked).toMatchObject([{ actor: `user:${subjectOf(t.access_token)}`, details: { provider: "up" } }]);
  });

  it("an operator unlinks a user's provider: admin:write, 204 then 404, audited; admin:read is refused", async () => {
    const who = login();
    idp.accounts.set(who, { email: `${who}@example.com`, email_verified: true, given_name: "Ona" });
    const done = await socialSignIn(s, app, app.entrypoint, "up", who);
    const id = subjectOf((await tokensOf(codeOf(done.res), done.verifier)).access_token);
    const unlink = (scope: string, provider = "up") =>
      admin(s, "DELETE", `/admin/v1/users/${id}/identities/${provider}`, { scope });
    expect((await unlink("admin:read")).statusCode).toBe(403);
    expect((await adminUser(id)).identities).toHaveLength(1);
    expect((await unlink("admin:write")).statusCode).toBe(204);
    const again = await unlink("admin:write");
    expect([again.statusCode, again.json().errors.code]).toEqual([404, "identity_not_linked"]);
    expect((await unlink("admin", "never")).statusCode).toBe(404);
    const nobody = await admin(s, "DELETE", "/admin/v1/users/nobody/identities/up", { scope: "admin:write" });
    expect([nobody.statusCode, nobody.json().errors.code]).toEqual([404, "user_not_found"]);
    expect((await adminUser(id)).identities).toEqual([]);
    const entries = await audit(s, { target: id, action: "user.identity.unlink" });
    expect(entries).toMatchObject([{ actor: OPERATOR_ACTOR, details: { provider: "up" } }]);
  });
});
