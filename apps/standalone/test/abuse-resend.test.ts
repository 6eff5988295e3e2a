import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostedApp, outboxMessage, type HostedApp } from "./hosted-flows.ts";
import { authorizePath, formOf, pkce, REDIRECT, validAuthorize } from "./oauth-flow.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { loginEnvelope, outboxLinks, PASSWORD, registerEnvelope, send } from "./user-flows.ts";

// Contract section 17 on the hosted forms that send a code or a link again:
// the code page's "send a new code", the confirmation page's, and the resend
// link's page. With captcha "altcha" a post without a solution is refused and
// sends nothing, a solved one sends, and its replay is refused.
describe("the ALTCHA check on the hosted resend forms", () => {
  let s: TestStack;
  let app: HostedApp;
  beforeAll(async () => {
    s = await startTestStack();
    app = await hostedApp(s, [REDIRECT]);
    const res = await s.app.inject({
      method: "PATCH",
      url: `/admin/v1/apps/${app.id}`,
      headers: { authorization: `Bearer ${await s.operatorToken()}`, "content-type": "application/json" },
      payload: JSON.stringify({ captcha: "altcha" }),
    });
    expect(res.statusCode, res.body).toBe(200);
  });
  afterAll(() => s.close());

  const email = (tag: string) =>
    `${tag}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
  const unescape = (v: string) =>
    v
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, "&");
  const hidden = (body: string, name: string) =>
    unescape(new RegExp(`name="${name}" value="([^"]*)"`).exec(body)?.[1] ?? "");

  /** The page's widget solved as the browser would: the payload its hidden input posts. */
  async function solved(body: string): Promise<string> {
    const raw = /<altcha-widget[^>]* challenge="([^"]+)"/.exec(body)?.[1];
    expect(raw, "the page carries the widget").toBeDefined();
    const challenge = JSON.parse(unescape(raw!));
    const solution = await solveChallenge({ challenge, deriveKey });
    return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
  }

  /** How many messages to `to` the outbox holds (created since `after`). */
  async function sentTo(to: string, after: number): Promise<number> {
    const dir = join(s.config.dataDir, "outbox");
    let n = 0;
    for (const f of await readdir(dir).catch(() => [] as string[])) {
      if (!f.endsWith(".json")) continue;
      const msg = JSON.parse(await readFile(join(dir, f), "utf8")) as { to: string; createdAt: string };
      if (msg.to === to && Date.parse(msg.createdAt) >= after) n++;
    }
    return n;
  }

  const postForm = (url: string, fields: Record<string, string>, cookie = "") =>
    s.app.inject({
      method: "POST",
      url,
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        ...(cookie ? { cookie } : {}),
        origin: s.config.publicBaseUrl,
      },
      payload: new URLSearchParams(fields).toString(),
    });
  const authorize = (fields: Record<string, string>, page: { body: string; headers: Record<string, unknown> }) => {
    const form = formOf(page);
    return s.app.inject({
      method: "POST",
      url: "/oauth2/authorize",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: form.cookie,
        origin: s.config.publicAuthUrl,
      },
      payload: new URLSearchParams({ form_token: form.token, ...fields }).toString(),
    });
  };

  /**
   * The form's three posts: without a solution (refused, nothing sent), solved
   * (sent: exactly one message since), the same solution again (refused).
   */
  async function refusedThenSentOnce(
    to: string,
    post: (
      page: { body: string; headers: Record<string, unknown> },
      altcha?: string,
    ) => Promise<{
      statusCode: number;
      body: string;
      headers: Record<string, unknown>;
    }>,
    first: { body: string; headers: Record<string, unknown> },
    sent: RegExp,
  ) {
    const after = Date.now();
    const none = await post(first);
    expect(none.statusCode, none.body.slice(0, 300)).toBe(400);
    // The check's failure (not the <noscript> text that names robots too).
    expect(none.body).toContain("did not pass");
    const payload = await solved(none.body);
    const ok = await post(none, payload);
    expect(ok.statusCode, /<div class="alert"[\s\S]*?<\/div>/.exec(ok.body)?.[0] ?? ok.body.slice(0, 300)).toBe(200);
    expect(ok.body).toMatch(sent);
    await outboxMessage(s, to, /\d{6}/, after);
    // The refused post sent nothing: the solved one's message is the only one since.
    expect(await sentTo(to, after)).toBe(1);
    const replayed = await post(ok, payload);
    expect(replayed.statusCode).toBe(400);
    expect(replayed.body).toContain("did not pass");
    const metrics = await s.app.inject({ method: "GET", url: "/metrics" });
    expect(metrics.body).toMatch(/gatehouse_captcha_refused_total\{reason="replayed"\} [1-9]/);
  }

  it("the code page's 'send a new code'", async () => {
    // A user with a confirmed email (registered by the API, not challenged; confirmed by its link).
    const address = email("code");
    const reg = await send(s, "POST", "/activityid/v1/user/register", app.token, app.eps.shop!, {
      ...registerEnvelope(app, address),
    });
    expect(reg.statusCode, reg.body).toBe(201);
    const [link] = await outboxLinks(s, address);
    const confirmed = await s.app.inject({ method: "GET", url: `/activityid/v1/user/confirm?token=${link}` });
    expect(confirmed.statusCode).toBe(302);
    const login = await s.app.inject({
      method: "GET",
      url: authorizePath(validAuthorize(app, pkce().challenge, { entrypoint: app.eps.shop! })),
    });
    const asked = await authorize(
      { email: address, send_code: "Send a new code", altcha: await solved(login.body) },
      login,
    );
    expect(asked.statusCode, asked.body.slice(0, 300)).toBe(200);
    expect(asked.headers["content-security-policy"]).toContain("worker-src 'self'");
    await outboxMessage(s, address, /Your sign-in code/);
    await refusedThenSentOnce(
      address,
      (page, altcha) =>
        authorize(
          { intent: "code", email: address, send_code: "Send a new code", ...(altcha ? { altcha } : {}) },
          page,
        ),
      asked,
      /We sent a new code/,
    );
  });

  it("the confirmation page's 'send a new code' (a hosted registration's)", async () => {
    const address = email("confirm");
    const signUp = await s.app.inject({
      method: "GET",
      url: authorizePath(validAuthorize(app, pkce().challenge, { entrypoint: app.eps.shop!, prompt: "create" })),
    });
    const fields = { intent: "register", email: address, name: "Ana", password: PASSWORD };
    const confirm = await authorize(
      { ...fields, [`assertion.${app.terms}`]: "true", altcha: await solved(signUp.body) },
      signUp,
    );
    expect(confirm.statusCode, confirm.body.slice(0, 300)).toBe(200);
    expect(confirm.body).toContain("Confirm your email");
    expect(confirm.headers["content-security-policy"]).toContain("worker-src 'self'");
    await outboxMessage(s, address, /\d{6}/);
    await refusedThenSentOnce(
      address,
      (page, altcha) =>
        authorize(
          {
            intent: "flow",
            page: "confirm",
            flow_token: hidden(page.body, "flow_token"),
            key: "email",
            to: address,
            resend: "Send a new code",
            ...(altcha ? { altcha } : {}),
          },
          page,
        ),
      confirm,
      /We sent a new code/,
    );
  });

  it("the resend link's page; with captcha off its GET sends at once, as before", async () => {
    const address = email("link");
    const reg = await send(s, "POST", "/activityid/v1/user/register", app.token, app.eps.shop!, {
      ...registerEnvelope(app, address),
    });
    expect(reg.statusCode, reg.body).toBe(201);
    const login = await send(s, "POST", "/activityid/v1/user/access", app.token, app.eps.shop!, {
      ...loginEnvelope(app, address),
    });
    expect(login.statusCode).toBe(412);
    const url = new URL(login.json().content.url as string);
    const path = `${url.pathname}${url.search}`;
    // The registration's message and the 412's resend are out before the page is looked at.
    await expect.poll(() => sentTo(address, 0), { timeout: 10_000 }).toBe(2);
    const before = Date.now();
    const page = await s.app.inject({ method: "GET", url: path, headers: { "accept-language": "es" } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Recibir un código nuevo");
    expect(page.headers["content-security-policy"]).toContain("worker-src 'self'");
    // Showing the form sent nothing.
    await new Promise((r) => setTimeout(r, 300));
    expect(await sentTo(address, before)).toBe(0);
    const token = url.searchParams.get("token")!;
    await refusedThenSentOnce(
      address,
      (_page, altcha) => postForm(url.pathname, { token, ...(altcha ? { altcha } : {}) }),
      page,
      /Code sent/,
    );

    const off = await s.app.inject({
      method: "PATCH",
      url: `/admin/v1/apps/${app.id}`,
      headers: { authorization: `Bearer ${await s.operatorToken()}`, "content-type": "application/json" },
      payload: JSON.stringify({ captcha: "off" }),
    });
    expect(off.statusCode).toBe(200);
    const after = Date.now();
    const direct = await s.app.inject({ method: "GET", url: path });
    expect(direct.statusCode, direct.body.slice(0, 300)).toBe(200);
    expect(direct.body).toContain("Code sent");
    expect(direct.body).not.toContain("altcha-widget");
    await outboxMessage(s, address, /\d{6}/, after);
  });
});
