import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { authorizePath, pkce, validAuthorize } from "./oauth-flow.ts";
import { newTypology, published, typologyApp } from "./terms-flows.ts";
import { createApp, loggedUser, loginEnvelope, send, type FlowApp } from "./user-flows.ts";

// The users service caches entry points and the assertion catalog; the
// registry's notices (kv pub/sub) drop them at once, so a changed MFA policy
// or a new mandatory assertion applies to the very next login, not after the
// cache's 30 s. The gateway's hosted pages cache the same answers and hear
// the same notices (a page read before a change shows the change next time).
describe.each([
  ["PostgreSQL + Redis", false],
  ["the embedded default", true],
])("registry notices on %s", (_name, embedded) => {
  let s: TestStack;
  beforeAll(async () => void (s = await startTestStack({ embedded })));
  afterAll(() => s.close());

  it("a new MFA policy and a new mandatory assertion apply to the next login", async () => {
    const typology = await newTypology(s);
    const app = await typologyApp(s, typology);
    const u = await loggedUser(s, app); // logs in once: the entry point and the catalog are now cached
    const login = () =>
      send(s, "POST", "/activityid/v1/user/access", app.token, app.entrypoint, loginEnvelope(app, u.email));
    expect((await login()).statusCode).toBe(200);

    await published(s, {
      key: `tos-${typology}`,
      displayName: { en: "Terms" },
      type: "terms",
      typology,
      mandatory: true,
      version: "1",
    });
    expect((await login()).statusCode).toBe(451);

    const op = await s.operatorToken();
    const patched = await s.app.inject({
      method: "PATCH",
      url: `/admin/v1/apps/${app.id}`,
      headers: { authorization: `Bearer ${op}`, "content-type": "application/json" },
      payload: JSON.stringify({ mfa: "required" }),
    });
    expect(patched.statusCode).toBe(200);
    const stepUp = await login();
    expect(stepUp.statusCode).toBe(428);
    expect(stepUp.json().content.mfa.enroll).toBe(true);
  });

  /** The hosted registration page of an entry point (read through the gateway's cache of the registry). */
  async function registrationPage(app: FlowApp, entrypoint = app.entrypoint) {
    const { challenge } = pkce();
    const params = validAuthorize(app, challenge, { entrypoint, prompt: "create" });
    const res = await s.app.inject({ method: "GET", url: authorizePath(params), headers: { "accept-language": "en" } });
    expect(res.statusCode, res.body).toBe(200);
    return res.body;
  }
  const input = (body: string, name: string) => new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(body)?.[0];

  it("the hosted registration page shows a newly published mandatory assertion and a changed format at once", async () => {
    const typology = await newTypology(s);
    const op = await s.operatorToken();
    const field = `f${Date.now().toString(36)}`;
    const admin = (method: "POST" | "PATCH", url: string, body: unknown) =>
      s.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${op}`, "content-type": "application/json" },
        payload: JSON.stringify(body),
      });
    expect(
      (await admin("POST", "/admin/v1/catalogs/fields", { key: field, displayName: "F", format: "text" })).statusCode,
    ).toBe(201);
    const app = await createApp(s, `n${Date.now().toString(36)}`, (body) => {
      const ep = body.entrypoints[0];
      ep.typology = {
        register: { objectType: "typology", id: typology },
        work: { objectType: "typology", id: typology },
      };
      ep.fields.push({ objectType: "fieldConfig", type: "field", key: field, mandatory: false });
    });
    const before = await registrationPage(app); // the entry point, formats and assertions are now cached
    expect(before).not.toContain(`name="assertion.tos-${typology}"`);
    expect(input(before, field)).toContain('type="text"');

    await published(s, {
      key: `tos-${typology}`,
      displayName: { en: "Terms" },
      type: "terms",
      typology,
      mandatory: true,
      version: "1",
    });
    expect((await admin("PATCH", `/admin/v1/catalogs/fields/${field}`, { format: "date" })).statusCode).toBe(200);
    const after = await registrationPage(app);
    expect(after).toContain(`name="assertion.tos-${typology}"`);
    expect(input(after, field)).toContain('type="date"');
  });
});
