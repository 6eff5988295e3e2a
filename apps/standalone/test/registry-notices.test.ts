import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { newTypology, published, typologyApp } from "./terms-flows.ts";
import { loggedUser, loginEnvelope, send } from "./user-flows.ts";

// The users service caches entry points and the assertion catalog; the
// registry's notices (kv pub/sub) drop them at once, so a changed MFA policy
// or a new mandatory assertion applies to the very next login, not after the
// cache's 30 s.
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
});
