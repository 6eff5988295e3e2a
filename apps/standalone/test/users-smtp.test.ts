import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropTestDatabases, freshDatabase, redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { startSmsSink, startSmtpServer, waitFor, type ReceivedMail } from "./mail-sinks.ts";
import { freePort, runEntry, stopChild, waitReady, type Spawned } from "./processes.ts";
import { OPERATOR, validApplication } from "./stack-helpers.ts";

// End to end through `npm start` (one process, PostgreSQL + Redis + BullMQ):
// the confirmation worker delivers to a real SMTP server and to an SMS
// webhook started here; everything else is plain HTTP against the gateway.

describe("confirmation messages over SMTP and the SMS webhook (npm start)", () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let sms: Awaited<ReturnType<typeof startSmsSink>>;
  let child: Spawned;
  let dataDir: string;
  let base: string;
  let app: { id: string; password: string; entrypoints: { id: string }[] };
  let appToken: string;

  beforeAll(async () => {
    [smtp, sms] = await Promise.all([startSmtpServer(), startSmsSink()]);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    dataDir = await mkdtemp(join(tmpdir(), "gh-smtp-"));
    child = await runEntry("main", [], {
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      SECRET_KEY: randomBytes(32).toString("base64url"),
      DATABASE_URL: (await freshDatabase()).url,
      REDIS_URL: redisTestUrl(),
      REDIS_PREFIX: uniquePrefix(),
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      SMS_WEBHOOK_URL: sms.url,
      BOOTSTRAP_OPERATOR_CLIENT_ID: OPERATOR.id,
      BOOTSTRAP_OPERATOR_CLIENT_SECRET: OPERATOR.secret,
      LOG_LEVEL: "warn",
    });
    await waitReady(`${base}/readyz`, child);

    const token = async (id: string, secret: string, scope?: string) => {
      const body = new URLSearchParams({ grant_type: "client_credentials", ...(scope ? { scope } : {}) });
      const res = await fetch(`${base}/oauth2/token`, {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body,
      });
      return ((await res.json()) as { access_token: string }).access_token;
    };
    const body = validApplication();
    const [web] = body.entrypoints;
    web.fields[1].requiresConfirmation = true; // phone_number: confirmed by SMS, not main
    // Phone is the main id: a 412 resends by SMS.
    const phone = structuredClone(web);
    phone.key = "phone";
    phone.fields[0] = {
      objectType: "fieldConfig",
      type: "id",
      key: "email",
      main: false,
      mandatory: true,
      requiresConfirmation: false,
    };
    phone.fields[1] = {
      objectType: "fieldConfig",
      type: "id",
      key: "phone_number",
      main: true,
      mandatory: true,
      requiresConfirmation: true,
    };
    body.entrypoints.push(phone);
    const created = await fetch(`${base}/v2/apps`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${await token(OPERATOR.id, OPERATOR.secret, "apps:write")}`,
        "content-type": "application/json",
      },
      body: JSON.stringify(body),
    });
    expect(created.status).toBe(201);
    app = ((await created.json()) as { content: typeof app }).content;
    appToken = await token(app.id, app.password);
  });

  afterAll(async () => {
    if (child) expect(await stopChild(child)).toBe(0);
    await Promise.all([smtp?.close(), sms?.close()]);
    await dropTestDatabases();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const source = { id: "pc", objectType: "device" };
  const post = (path: string, payload: unknown, opts: { lang?: string; ep?: number; bearer?: string } = {}) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${opts.bearer ?? appToken}`,
        "content-type": "application/json",
        accept: "application/json",
        from: app.entrypoints[opts.ep ?? 0]!.id,
        "accept-language": opts.lang ?? "en",
      },
      body: JSON.stringify(payload),
    });
  const register = (email: string, opts: { lang?: string; ep?: number; phone?: string } = {}) =>
    post(
      "/activityid/v1/user/register",
      {
        actor: { id: app.id, objectType: "application" },
        verb: "create",
        object: {
          objectType: "user",
          password: "correct horse battery",
          ids: {
            email: { objectType: "user_id", value: email },
            ...(opts.phone ? { phone_number: { objectType: "user_id", value: opts.phone } } : {}),
          },
          datas: { name: { objectType: "data", value: "Ana" } },
          assertions: {},
        },
        source,
      },
      opts,
    );
  const login = (email: string, opts: { lang?: string; ep?: number } = {}) =>
    post(
      "/activityid/v1/user/access",
      {
        actor: { id: app.id, objectType: "application" },
        verb: "access",
        object: {
          objectType: "user",
          password: "correct horse battery",
          ids: { email: { objectType: "user_id", value: email } },
        },
        source,
      },
      opts,
    );
  const get = (url: string, lang = "en") => fetch(url, { redirect: "manual", headers: { "accept-language": lang } });

  const uniqueEmail = (name: string) => `${name}.${randomBytes(4).toString("hex")}@example.com`;
  const uniquePhone = () => `+3461${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
  const mailsTo = (to: string) => smtp.mails.filter((m) => m.to.includes(to));
  /** The n-th (1-based) message received for `to`. */
  const nthMail = (to: string, n: number) => waitFor(() => mailsTo(to)[n - 1], `mail #${n} to ${to}`);
  const smsTo = (to: string, n: number) =>
    waitFor(() => sms.messages.filter((m) => m.to === to)[n - 1], `SMS #${n} to ${to}`);
  const linkOf = (m: ReceivedMail) => /(http\S+\/activityid\/v1\/user\/confirm\?token=\S+)/.exec(m.text)?.[1] ?? "";
  const codeOf = (m: ReceivedMail) => /(?:code is|código de confirmación es): (\d{6})\n/.exec(m.text)?.[1] ?? "";

  it("register → email with link and code → 412 with content.url → resend → the FIRST link still confirms → 200", async () => {
    const email = uniqueEmail("ana");
    expect((await register(email)).status).toBe(201);
    const first = await nthMail(email, 1);
    expect(first.subject).toBe("Confirm your account");
    expect(codeOf(first)).toMatch(/^\d{6}$/);
    expect(linkOf(first).startsWith(`${base}/activityid/v1/user/confirm?token=`)).toBe(true);

    const refused = await login(email);
    expect(refused.status).toBe(412);
    const body = (await refused.json()) as { content: { url: string }; errors: { code: string; subcode?: number } };
    expect(body.errors.code).toBe("user_unconfirmed");
    expect(body.errors.subcode).toBeUndefined();
    expect(body.content.url.startsWith(`${base}/activityid/v1/user/confirm/resend?token=`)).toBe(true);
    const atLogin = await nthMail(email, 2);
    expect(atLogin.subject).toBe("Your confirmation code");

    const page = await get(body.content.url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await page.text()).toContain("Code sent");
    const resent = await nthMail(email, 3);
    expect(codeOf(resent)).toMatch(/^\d{6}$/);
    expect(new Set([linkOf(first), linkOf(atLogin), linkOf(resent)]).size).toBe(3);

    const confirmed = await get(linkOf(first));
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("location")).toBe(`${base}/activityid/v1/user/confirmed`);
    // Its siblings did their job with it.
    expect((await get(linkOf(resent))).status).toBe(400);
    const ok = await login(email);
    expect(ok.status).toBe(200);
    expect(
      ((await ok.json()) as { content: { user: { ids: { email: { confirmed: boolean } } } } }).content.user.ids.email
        .confirmed,
    ).toBe(true);
  });

  it("messages and pages follow Accept-Language (es)", async () => {
    const email = uniqueEmail("eva");
    expect((await register(email, { lang: "es-ES,es;q=0.9" })).status).toBe(201);
    const first = await nthMail(email, 1);
    expect(first.subject).toBe("Confirma tu cuenta");
    expect(first.text).toContain("También puedes confirmar abriendo este enlace:");
    expect(codeOf(first)).toMatch(/^\d{6}$/);
    const refused = await login(email, { lang: "es" });
    expect(refused.status).toBe(412);
    const body = (await refused.json()) as { content: { url: string }; errors: { message: string } };
    expect(body.errors.message).toBe("El usuario no ha confirmado el correo.");
    expect((await nthMail(email, 2)).subject).toBe("Tu código de confirmación");
    const page = await get(body.content.url, "es");
    expect(await page.text()).toContain("Código enviado");
    expect(codeOf(await nthMail(email, 3))).toMatch(/^\d{6}$/);
  });

  it("after the resend limit (3 an hour) a login 412 has errors.subcode 429 and the link answers 429; nothing more is sent", async () => {
    const email = uniqueEmail("bea");
    expect((await register(email)).status).toBe(201);
    for (let n = 2; n <= 4; n++) {
      const res = await login(email);
      expect(res.status).toBe(412);
      expect(((await res.json()) as { errors: { subcode?: number } }).errors.subcode).toBeUndefined();
      await nthMail(email, n);
    }
    const over = await login(email);
    expect(over.status).toBe(412);
    const body = (await over.json()) as { content: { url: string }; errors: { code: string; subcode?: number } };
    expect(body.errors).toMatchObject({ code: "user_unconfirmed", subcode: 429 });
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    const page = await get(body.content.url);
    expect(page.status).toBe(429);
    expect(Number(page.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await page.text()).toContain("Too many requests");
    expect((await get(`${base}/activityid/v1/user/confirm/resend?token=nonsense`)).status).toBe(400);
    await new Promise((r) => setTimeout(r, 1500));
    expect(mailsTo(email)).toHaveLength(4);
  });

  it("an SMS code reaches the webhook for a phone identifier and confirms it; a main phone's 412 resends by SMS", async () => {
    const email = uniqueEmail("dora");
    const phone = uniquePhone();
    expect((await register(email, { phone })).status).toBe(201);
    const text = await smsTo(phone, 1);
    expect(text.code).toMatch(/^\d{6}$/);
    expect(text.text).toContain(text.code);
    expect((await get(linkOf(await nthMail(email, 1)))).status).toBe(302);
    const logged = await login(email);
    expect(logged.status).toBe(200);
    const userToken = ((await logged.json()) as { content: { session_info: { access_token: string } } }).content
      .session_info.access_token;
    const confirmed = await post(
      "/activityid/v1/user/confirm",
      { objectType: "confirmation", id: "phone_number", code: text.code },
      { bearer: userToken },
    );
    expect(confirmed.status).toBe(200);
    expect(
      ((await confirmed.json()) as { content: { user: { ids: { phone_number: { confirmed: boolean } } } } }).content
        .user.ids.phone_number.confirmed,
    ).toBe(true);

    const other = uniqueEmail("pia");
    const mainPhone = uniquePhone();
    expect((await register(other, { ep: 1, phone: mainPhone })).status).toBe(201);
    await smsTo(mainPhone, 1);
    const refused = await login(other, { ep: 1, lang: "es" });
    expect(refused.status).toBe(412);
    const resent = await smsTo(mainPhone, 2);
    expect(resent.text).toBe(`Tu código de confirmación es ${resent.code}`);
    expect(mailsTo(other)).toHaveLength(0);
  });
});
