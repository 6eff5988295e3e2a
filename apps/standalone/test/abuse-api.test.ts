import { rangeApi } from "@gatehouse/testing";
import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostedApp, type HostedApp } from "./hosted-flows.ts";
import { authorizePath, formOf, pkce, REDIRECT, validAuthorize } from "./oauth-flow.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { PASSWORD, registerEnvelope, send, SOURCE } from "./user-flows.ts";

// Contract section 17 through the whole stack (PostgreSQL, Redis): the JSON
// API's answers, the applications' settings, and the hosted forms' ALTCHA
// check as a crafted post meets it (solved here, then replayed).
const BREACHED = "marmalade skyline 77";

describe("abuse protection through the API", () => {
  let s: TestStack;
  let app: HostedApp;
  let range: Awaited<ReturnType<typeof rangeApi>>;
  let operator: string;
  beforeAll(async () => {
    range = await rangeApi([BREACHED]);
    s = await startTestStack({ env: { PWNED_PASSWORDS_URL: range.url, SMS_LIMIT_PER_PREFIX_PER_HOUR: "2" } });
    app = await hostedApp(s, [REDIRECT]);
    operator = await s.operatorToken();
  });
  afterAll(async () => {
    await s.close();
    await range.close();
  });

  const email = (tag: string) =>
    `${tag}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
  let serial = 0;
  const phone = (code: string) => `${code}3${String(Date.now() * 100 + serial++).slice(-8)}`;
  const admin = (method: "GET" | "PATCH", body?: unknown) =>
    s.app.inject({
      method,
      url: `/admin/v1/apps/${app.id}`,
      headers: { authorization: `Bearer ${operator}`, "content-type": "application/json" },
      ...(body ? { payload: JSON.stringify(body) } : {}),
    });
  const register = (ep: string, object: Record<string, unknown>, lang = "en") =>
    send(
      s,
      "POST",
      "/activityid/v1/user/register",
      app.token,
      app.eps[ep]!,
      { actor: { id: app.id, objectType: "application" }, verb: "create", object, source: SOURCE },
      { "accept-language": lang },
    );
  const phoneObject = (value: string) => ({
    objectType: "user",
    ids: { phone_number: { objectType: "user_id", value } },
    datas: {},
    assertions: {},
  });

  it("registration: 400 password_weak (common, breached; en and es); only 5 hex characters went to the range API", async () => {
    const envelope = registerEnvelope(app, email("weak"), "Password1");
    const weak = await send(s, "POST", "/activityid/v1/user/register", app.token, app.eps.shop!, envelope);
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors).toMatchObject({
      code: "password_weak",
      items: [
        { field: "object.password", code: "password_weak", message: expect.stringContaining("too easy to guess") },
      ],
    });
    const breached = await register(
      "shop",
      { ...registerEnvelope(app, email("leak"), BREACHED).object, assertions: {} },
      "es",
    );
    expect(breached.statusCode).toBe(400);
    expect(breached.json().errors.items[0]).toMatchObject({
      field: "object.password",
      code: "password_weak",
      message: expect.stringContaining("demasiado fácil de adivinar"),
    });
    expect(range.asked.length).toBeGreaterThan(0);
    for (const path of range.asked) expect(path).toMatch(/^\/range\/[0-9A-F]{5}$/);
    const ok = await send(
      s,
      "POST",
      "/activityid/v1/user/register",
      app.token,
      app.eps.shop!,
      registerEnvelope(app, email("ok")),
    );
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it("admin: captcha, smsPerHour and phonePrefixes are read and patched; wrong values are 400 naming each", async () => {
    const before = (await admin("GET")).json().content;
    expect(before).toMatchObject({ captcha: "off", smsPerHour: null, phonePrefixes: [] });
    const bad = await admin("PATCH", { captcha: "hcaptcha", phonePrefixes: ["0034"] });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .errors.items.map((i: { field: string }) => i.field)
        .sort(),
    ).toEqual(["captcha", "phonePrefixes.0"]);
    const set = await admin("PATCH", { smsPerHour: 500, phonePrefixes: ["+39", "+34"] });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().content).toMatchObject({ smsPerHour: 500, phonePrefixes: ["+39", "+34"] });
    const outside = await register("mobile", phoneObject(phone("+52")));
    expect(outside.statusCode).toBe(400);
    expect(outside.json().errors.code).toBe("invalid_value");
    expect(outside.json().errors.items).toMatchObject([
      { field: "object.ids.phone_number.value", code: "invalid_value" },
    ]);
    const cleared = await admin("PATCH", { smsPerHour: null, phonePrefixes: [] });
    expect(cleared.json().content).toMatchObject({ smsPerHour: null, phonePrefixes: [] });
  });

  it("SMS: beyond the calling code's hourly budget a registration and a code request are 429 sms_limit; emails go on; /metrics counts it", async () => {
    for (let i = 0; i < 2; i++) expect((await register("mobile", phoneObject(phone("+39")))).statusCode).toBe(201);
    const refused = await register("mobile", phoneObject(phone("+39")));
    expect(refused.statusCode).toBe(429);
    expect(refused.json().errors.code).toBe("sms_limit");
    // The budgets are per clock hour: Retry-After says when the next one starts.
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(3600);
    const code = await send(s, "POST", "/activityid/v1/user/access/code", app.token, app.eps.mobile!, {
      objectType: "access_code",
      ids: { phone_number: { objectType: "user_id", value: phone("+39") } },
    });
    expect(code.statusCode).toBe(429);
    expect(code.json().errors.code).toBe("sms_limit");
    const mail = await send(
      s,
      "POST",
      "/activityid/v1/user/register",
      app.token,
      app.eps.shop!,
      registerEnvelope(app, email("mail")),
    );
    expect(mail.statusCode).toBe(201);
    const metrics = await s.app.inject({ method: "GET", url: "/metrics" });
    expect(metrics.body).toMatch(/gatehouse_sms_refused_total\{limit="prefix"\} [1-9]/);

    // The hosted code request meets the same budget: a 429 page that says when it opens again.
    const { challenge } = pkce();
    const login = await s.app.inject({
      method: "GET",
      url: authorizePath(validAuthorize(app, challenge, { entrypoint: app.eps.mobile! })),
    });
    expect(login.statusCode).toBe(200);
    const form = formOf(login);
    const page = await s.app.inject({
      method: "POST",
      url: "/oauth2/authorize",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: form.cookie,
        origin: s.config.publicAuthUrl,
      },
      payload: new URLSearchParams({ form_token: form.token, phone_number: phone("+39"), send_code: "" }).toString(),
    });
    expect(page.statusCode, page.body.slice(0, 300)).toBe(429);
    expect(String(page.headers["content-type"])).toMatch(/^text\/html/);
    expect(Number(page.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(page.headers["retry-after"])).toBeLessThanOrEqual(3600);
    // And so does the hosted registration.
    const create = await s.app.inject({
      method: "GET",
      url: authorizePath(validAuthorize(app, pkce().challenge, { entrypoint: app.eps.mobile!, prompt: "create" })),
    });
    const signUp = formOf(create);
    const registration = await s.app.inject({
      method: "POST",
      url: "/oauth2/authorize",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: signUp.cookie,
        origin: s.config.publicAuthUrl,
      },
      payload: new URLSearchParams({
        form_token: signUp.token,
        intent: "register",
        phone_number: phone("+39"),
        [`assertion.${app.terms}`]: "true",
      }).toString(),
    });
    expect(registration.statusCode, registration.body.slice(0, 300)).toBe(429);
    expect(Number(registration.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("hosted registration with captcha altcha: a solved challenge passes once, its replay is refused; the API is not challenged", async () => {
    expect((await admin("PATCH", { captcha: "altcha" })).statusCode).toBe(200);
    const page = async () => {
      const { challenge } = pkce();
      const res = await s.app.inject({
        method: "GET",
        url: authorizePath(validAuthorize(app, challenge, { entrypoint: app.eps.shop!, prompt: "create" })),
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-security-policy"]).toContain("script-src 'self'");
      const raw = /<altcha-widget[^>]* challenge="([^"]+)"/.exec(res.body)![1]!;
      const json = raw
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, "&");
      return { form: formOf(res), challenge: JSON.parse(json) };
    };
    const post = (form: { token: string; cookie: string }, fields: Record<string, string>) =>
      s.app.inject({
        method: "POST",
        url: "/oauth2/authorize",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          cookie: form.cookie,
          origin: s.config.publicAuthUrl,
        },
        payload: new URLSearchParams({ form_token: form.token, ...fields }).toString(),
      });
    const fields = (address: string) => ({
      intent: "register",
      email: address,
      name: "Ana",
      password: PASSWORD,
      [`assertion.${app.terms}`]: "true",
    });

    const first = await page();
    const solution = await solveChallenge({ challenge: first.challenge, deriveKey });
    const payload = Buffer.from(JSON.stringify({ challenge: first.challenge, solution })).toString("base64");
    const created = await post(first.form, { ...fields(email("human")), altcha: payload });
    expect(created.statusCode, created.body.slice(0, 400)).toBe(200);
    expect(created.body).toContain("Confirm your email");

    const second = await page();
    const replayed = await post(second.form, { ...fields(email("bot")), altcha: payload });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.body).toContain("not a robot");
    const none = await post((await page()).form, fields(email("bot2")));
    expect(none.statusCode).toBe(400);
    const metrics = await s.app.inject({ method: "GET", url: "/metrics" });
    expect(metrics.body).toMatch(/gatehouse_captcha_refused_total\{reason="replayed"\} [1-9]/);

    const api = await send(
      s,
      "POST",
      "/activityid/v1/user/register",
      app.token,
      app.eps.shop!,
      registerEnvelope(app, email("api")),
    );
    expect(api.statusCode, api.body).toBe(201);
  });

  it("the widget's files are served from this origin; other names are 404", async () => {
    for (const [file, type] of [
      ["altcha.js", "javascript"],
      ["setup.js", "javascript"],
      ["sha.js", "javascript"],
      ["altcha.css", "text/css"],
    ] as const) {
      const res = await s.app.inject({ method: "GET", url: `/hosted/static/altcha/${file}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toContain(type);
    }
    expect((await s.app.inject({ method: "GET", url: "/hosted/static/altcha/..%2Fpackage.json" })).statusCode).toBe(
      404,
    );
  });
});
