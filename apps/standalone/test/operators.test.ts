import { randomBytes } from "node:crypto";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { authorizePath, formOf, pkce } from "./oauth-flow.ts";
import {
  activate,
  cli,
  CONSOLE,
  OPERATOR_PASSWORD,
  consoleRequest,
  consoleTokens,
  enrolmentOf,
  formTokenIn,
  mfaTokenIn,
  post,
  signIn,
  totpOf,
} from "./operator-flows.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { createApp, loggedUser } from "./user-flows.ts";

// Operator persons (contract section 6): create-operator's one-time link, the
// password set on the activation page, the first sign-in to the console with
// the hosted TOTP enrolment and its recovery codes, the code bought by the
// public client gatehouse-console with PKCE, a token with `admin` whose admin
// calls the audit names by id and email; the second sign-in asks the code;
// non-operators and other clients get no admin scope. PostgreSQL + Redis,
// the CLI beside the stack on the same stores.

describe("operator persons sign in to the console", () => {
  let s: TestStack;
  let env: Record<string, string>;
  const email = `ana.ops.${randomBytes(3).toString("hex")}@example.com`;
  let link = "";
  let secret = "";
  let userId = "";
  let recoveryCodes: string[] = [];

  beforeAll(async () => {
    env = {
      DATABASE_URL: (await freshDatabase()).url,
      REDIS_URL: redisTestUrl(),
      REDIS_PREFIX: uniquePrefix(),
      SECRET_KEY: randomBytes(32).toString("base64url"),
      PUBLIC_URL: "http://gatehouse.test",
    };
    s = await startTestStack({ env });
    env.DATA_DIR = s.config.dataDir;
  });
  afterAll(async () => s?.close());

  it("create-operator prints {email, link, expiresAt} (7 days) and refuses an email that exists", async () => {
    const r = await cli(["create-operator", "--email", email.toUpperCase()], env);
    expect(r).toMatchObject({ code: 0, err: "" });
    const out = JSON.parse(r.out) as { email: string; link: string; expiresAt: string };
    expect(Object.keys(out).sort()).toEqual(["email", "expiresAt", "link"]);
    expect(out.email).toBe(email);
    expect(out.link).toMatch(/^http:\/\/gatehouse\.test\/activityid\/v1\/user\/activate\?token=[\w-]{43}$/);
    const days = (Date.parse(out.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    link = out.link;

    const again = await cli(["create-operator", "--email", email], env);
    expect(again.code).toBe(1);
    expect(again.out).toBe("");
    expect(again.err).toMatch(/^create-operator: That identifier is already registered\. .*\[identifier_taken\]\n$/);
    const missing = await cli(["create-operator"], env);
    expect(missing).toMatchObject({ code: 2, out: "" });
    expect(missing.err).toContain("--email");
  });

  it("before activation the console's sign-in is refused (412 page); the link sets the password once", async () => {
    const early = await signIn(s, email, "whatever-password");
    expect(early.after.statusCode).toBe(403);
    expect(early.after.body).toContain("Activate your account");
    await activate(s, link);
    const reused = await s.app.inject({ method: "GET", url: new URL(link).pathname + new URL(link).search });
    expect(reused.statusCode).toBe(400);
  });

  it("first sign-in: the enrolment page (QR as inline SVG, the secret as text), the recovery codes once, then the code and a token with admin", async () => {
    const first = await signIn(s, email);
    expect(first.after.statusCode).toBe(200);
    const body = first.after.body;
    expect(body).toContain("Set up two-step verification");
    expect(body).toMatch(
      /<figure class="qr" role="img" aria-label="[^"]+"><svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*viewBox="0 0 \d+ \d+"/,
    );
    expect(body).not.toContain("<script");
    expect(first.after.headers["content-security-policy"]).toMatch(/default-src 'none'/);
    const enrolment = enrolmentOf(body);
    expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolment.shownSecret).toBe(enrolment.secret);
    secret = enrolment.secret;

    // A wrong code: the same secret again, with the error.
    const wrong = await post(s, first.cookie, {
      ...enrolment.fields,
      code: "000000" === totpOf(secret) ? "111111" : "000000",
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('role="alert"');
    const retry = enrolmentOf(wrong.body);
    expect(retry.secret).toBe(secret);

    const recovery = await post(s, formOf(wrong, first.cookie).cookie, { ...retry.fields, code: totpOf(secret) });
    expect(recovery.statusCode).toBe(200);
    const codes = [...recovery.body.matchAll(/<li><code>([a-z2-9]{5}-[a-z2-9]{5})<\/code><\/li>/g)].map((m) => m[1]);
    expect(codes).toHaveLength(10);
    recoveryCodes = codes as string[];

    const done = await post(s, formOf(recovery, first.cookie).cookie, {
      form_token: formTokenIn(recovery.body),
      mfa_token: mfaTokenIn(recovery.body),
      code: "",
    });
    expect(done.statusCode).toBe(303);
    const tokens = await consoleTokens(s, String(done.headers.location), first.verifier, first.params.state);
    expect(tokens.scope.split(" ").sort()).toEqual(["admin", "openid"]);
    const claims = decodeJwt(tokens.access_token);
    expect(claims).toMatchObject({ client_id: CONSOLE, app_id: "gatehouse", email, scope: "openid admin" });
    userId = String(claims.sub);

    // An admin call with the person's token: the audit names them by id and email.
    const key = `ops${randomBytes(3).toString("hex")}`;
    const created = await s.app.inject({
      method: "POST",
      url: "/admin/v1/catalogs/brands",
      headers: { authorization: `Bearer ${tokens.access_token}`, "content-type": "application/json" },
      payload: { key, displayName: "Made by an operator person" },
    });
    expect(created.statusCode).toBe(201);
    const audit = await s.app.inject({
      method: "GET",
      url: `/admin/v1/audit?action=catalog_entry.create&actor=${userId}`,
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(audit.statusCode).toBe(200);
    const [entry] = audit.json().content.items;
    expect(entry).toMatchObject({
      actor: `user:${userId}`,
      target: expect.stringContaining(key),
      details: expect.objectContaining({ actorEmail: email }),
    });

    // Refresh keeps the scopes and the person.
    const refreshed = await s.app.inject({
      method: "POST",
      url: "/oauth2/token",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({
        grant_type: "refresh_token",
        client_id: CONSOLE,
        refresh_token: tokens.refresh_token,
      }).toString(),
    });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json().scope).toBe("openid admin");
    expect(decodeJwt(refreshed.json().access_token)).toMatchObject({ sub: userId, email, scope: "openid admin" });

    // Operators keep TOTP: it cannot be turned off (the users endpoint refuses).
    const off = await s.app.inject({
      method: "POST",
      url: "/activityid/v1/user/mfa/totp/disable",
      headers: { authorization: `Bearer ${tokens.access_token}`, "content-type": "application/json" },
      payload: { password: OPERATOR_PASSWORD },
    });
    expect(off.statusCode).toBe(409);
    expect(off.json().errors.code).toBe("mfa_state_conflict");
  });

  it("second sign-in asks the TOTP code; admin:read alone is granted when asked alone", async () => {
    const second = await signIn(s, email, undefined, { scope: "openid admin:read" });
    expect(second.after.statusCode).toBe(200);
    expect(second.after.body).toContain('name="mfa_token"');
    expect(second.after.body).not.toContain("totp_secret");
    // The next time step (the enrolment spent this one).
    const done = await post(s, second.cookie, {
      form_token: formTokenIn(second.after.body),
      mfa_token: mfaTokenIn(second.after.body),
      code: totpOf(secret, 1),
    });
    expect(done.statusCode).toBe(303);
    const tokens = await consoleTokens(s, String(done.headers.location), second.verifier, second.params.state);
    expect(tokens.scope).toBe("openid admin:read");
    const write = await s.app.inject({
      method: "POST",
      url: "/admin/v1/users/nobody/lock",
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(write.statusCode).toBe(403);
  });

  it("the console's login page offers no code sign-in: a forged code request or code login is refused (400)", async () => {
    const req = consoleRequest(s);
    const page = await s.app.inject({ method: "GET", url: req.path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('name="password"');
    expect(page.body).not.toContain('name="send_code"');
    const form = formOf(page);
    const asked = await post(s, form.cookie, { form_token: form.token, email, send_code: "" });
    expect(asked.statusCode).toBe(400);
    expect(asked.body).not.toContain('name="code"');
    const forged = await post(s, form.cookie, { form_token: form.token, intent: "code", email, code: "123456" });
    expect(forged.statusCode).toBe(400);
    expect(forged.headers.location).toBeUndefined();
  });

  it("a non-operator is refused with a page of its own, before any code is issued", async () => {
    const app = await createApp(s, `np${Date.now().toString(36)}`);
    const user = await loggedUser(s, app);
    const r = await signIn(s, user.email, "correct horse battery");
    expect(r.after.statusCode).toBe(403);
    expect(r.after.body).toContain("This account cannot use the console");
    expect(r.after.headers.location).toBeUndefined();
  });

  it("no other client obtains admin scopes for a person; the console's redirect URI matches exactly", async () => {
    const app = await createApp(
      s,
      `ns${Date.now().toString(36)}`,
      (b) => void (b.redirectUris = ["https://shop.example.com/callback"]),
    );
    for (const clientId of [app.id, app.entrypoint]) {
      const { challenge } = pkce();
      const res = await s.app.inject({
        method: "GET",
        url: authorizePath({
          client_id: clientId,
          redirect_uri: "https://shop.example.com/callback",
          response_type: "code",
          scope: "openid admin",
          state: "x",
          code_challenge: challenge,
          code_challenge_method: "S256",
        }),
      });
      expect(res.statusCode).toBe(302);
      const back = new URL(String(res.headers.location));
      expect(back.searchParams.get("error")).toBe("invalid_scope");
    }
    for (const redirect of [
      "http://gatehouse.test/console/callback/",
      "http://gatehouse.test/console/callback?x=1",
      "http://GATEHOUSE.test/console/callback",
      "http://gatehouse.test/console",
      "https://gatehouse.test/console/callback",
    ]) {
      const res = await s.app.inject({ method: "GET", url: consoleRequest(s, { redirect_uri: redirect }).path });
      expect({ redirect, status: res.statusCode, location: res.headers.location }).toEqual({
        redirect,
        status: 400,
        location: undefined,
      });
    }
    // The console is a public client: its own secretless token requests only; client_credentials is refused.
    const cc = await s.app.inject({
      method: "POST",
      url: "/oauth2/token",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ grant_type: "client_credentials", client_id: CONSOLE, scope: "admin" }).toString(),
    });
    expect(cc.statusCode).toBe(400);
    expect(cc.json().error).toBe("unauthorized_client");
  });

  it("a mandatory legal assertion for consumers does not stop an operator's console sign-in", async () => {
    const op = await s.operatorToken("admin");
    const published = await s.app.inject({
      method: "POST",
      url: "/admin/v1/assertions",
      headers: { authorization: `Bearer ${op}`, "content-type": "application/json" },
      payload: {
        key: "consumer-terms",
        displayName: "Consumer terms",
        type: "terms",
        typology: "consumer",
        mandatory: true,
        version: "1",
      },
    });
    expect(published.statusCode).toBe(201);
    const third = await signIn(s, email);
    expect(third.after.body).toContain('name="mfa_token"');
    const done = await post(s, third.cookie, {
      form_token: formTokenIn(third.after.body),
      mfa_token: mfaTokenIn(third.after.body),
      code: recoveryCodes[0]!,
    });
    expect([done.statusCode, done.body]).toEqual([303, ""]);
    expect((await consoleTokens(s, String(done.headers.location), third.verifier, third.params.state)).scope).toBe(
      "openid admin",
    );
  });
});
