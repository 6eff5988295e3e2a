import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostedApp, outboxMessage, type HostedApp } from "./hosted-flows.ts";
import { authorizePath, formOf, pkce, REDIRECT, validAuthorize } from "./oauth-flow.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { createApp, PASSWORD } from "./user-flows.ts";

// The hosted entry-point forms (contract section 8) as a browser posts them,
// without a browser: the rules a page must keep even for a crafted post.
describe("hosted entry-point forms, posted", () => {
  let s: TestStack;
  let app: HostedApp;
  let typed: HostedApp;
  beforeAll(async () => {
    s = await startTestStack();
    app = await hostedApp(s, [REDIRECT]);
    // Before any page reads the catalog (the gateway keeps it 30 s): the shipped text field `nickname` becomes a date.
    const patched = await s.app.inject({
      method: "PATCH",
      url: "/admin/v1/catalogs/fields/nickname",
      headers: { authorization: `Bearer ${await s.operatorToken()}`, "content-type": "application/json" },
      payload: JSON.stringify({ format: "date" }),
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const created = await createApp(s, "typed", (body) => {
      body.redirectUris = [REDIRECT];
      body.entrypoints[0].key = "typed";
      body.entrypoints[0].fields = [
        {
          objectType: "fieldConfig",
          type: "id",
          key: "email",
          main: true,
          mandatory: true,
          requiresConfirmation: true,
        },
        { objectType: "fieldConfig", type: "field", key: "nickname" },
      ];
    });
    typed = { ...app, ...created, eps: { typed: created.entrypoint } };
  });
  afterAll(() => s.close());

  const email = (tag: string) =>
    `${tag}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

  /** The page of an entry point (its registration with `prompt=create`), in a language. */
  async function page(ep: string, extra: Record<string, string> = {}, lang = "en", of: HostedApp = app) {
    const { challenge } = pkce();
    const res = await s.app.inject({
      method: "GET",
      url: authorizePath(validAuthorize(of, challenge, { entrypoint: of.eps[ep]!, ...extra })),
      headers: { "accept-language": lang },
    });
    expect(res.statusCode, res.body).toBe(200);
    return { body: res.body, form: formOf(res) };
  }

  /** Posts a page's form as the browser would, with its cookie. */
  function post(form: { token: string; cookie: string }, fields: Record<string, string>, lang = "en") {
    return s.app.inject({
      method: "POST",
      url: "/oauth2/authorize",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: form.cookie,
        origin: s.config.publicAuthUrl,
        "accept-language": lang,
      },
      payload: new URLSearchParams({ form_token: form.token, ...fields }).toString(),
    });
  }

  it("passwordless: a registration posted with a password is refused (400), the page again with the alert; nothing is registered", async () => {
    const { body, form } = await page("nopass", { prompt: "create" }, "es");
    expect(body).not.toContain('name="password"');
    const address = email("nopass");
    const fields = { intent: "register", email: address, name: "Ana", [`assertion.${app.terms}`]: "true" };
    const refused = await post(form, { ...fields, password: PASSWORD }, "es");
    expect(refused.statusCode).toBe(400);
    expect(refused.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(refused.body).toContain('role="alert"');
    expect(refused.body).toContain("Este acceso no usa contraseña");
    // Every value kept.
    expect(refused.body).toContain(`value="${address}"`);
    expect(refused.body).toMatch(/name="assertion\.[^"]+" value="true" checked/);
    // Without it, the same address registers: the refused post created nothing.
    const again = formOf(refused, form.cookie);
    const ok = await post(again, fields, "es");
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.body).toContain('name="code"');
    expect((await outboxMessage(s, address, /Confirma tu cuenta/)).code).toMatch(/^\d{6}$/);
  });

  it("a shipped text field the operator gives a catalog format gets that format's input type (the key or the catalog format says so)", async () => {
    const { body } = await page("typed", { prompt: "create" }, "en", typed);
    expect(/<input[^>]*name="nickname"[^>]*>/.exec(body)?.[0]).toContain('type="date"');
    expect(/<input[^>]*name="email"[^>]*>/.exec(body)?.[0]).toContain('type="email"');
  });
});
