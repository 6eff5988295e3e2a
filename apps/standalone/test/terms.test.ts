import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { totpCode } from "@gatehouse/users";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { loggedUser, PASSWORD, send, SOURCE } from "./user-flows.ts";
import { acceptances, answer, login, newTypology, published, termsForm, typologyApp } from "./terms-flows.ts";
import { authorizePath, formOf, pkce, postLogin, REDIRECT, validAuthorize } from "./oauth-flow.ts";

// Legal assertions at login (contract sections 5 and 7): 451 with the spec's
// body, acceptance by login `object.assertions`, by patch and by the hosted
// page, new versions, declines, and 206 (fca) once the terms are cleared.
describe.each([
  ["PostgreSQL + Redis + BullMQ", false],
  ["the embedded default", true],
])("legal assertions (451) on %s", (_name, embedded) => {
  let s: TestStack;
  // The catalog is read at every login here (no 30 s cache), so a new version applies at once.
  beforeAll(async () => void (s = await startTestStack({ embedded, env: { ASSERTIONS_CACHE_TTL: "0" } })));
  afterAll(() => s.close());

  // Keys are global: each test names its own after its typology.
  const T = (typology: string) => `terms-${typology}`;
  const P = (typology: string) => `privacy-${typology}`;
  const terms = (typology: string, extra: Record<string, unknown> = {}) => ({
    key: T(typology),
    displayName: { en: "I accept the terms of use", es: "Acepto las condiciones de uso" },
    type: "terms",
    typology,
    mandatory: true,
    version: "2024-01",
    ...extra,
  });
  const privacy = (typology: string) => ({
    key: P(typology),
    displayName: { en: "Send me news", es: "Envíame novedades" },
    type: "marketing",
    typology,
    property: "default",
    mandatory: false,
    version: "1",
  });

  it("451 with the spec's body, field by field; object.assertions at login accepts and declines; a new version asks again; 206 with fca after", async () => {
    const typology = await newTypology(s);
    const app = await typologyApp(s, typology);
    const u = await loggedUser(s, app);
    await published(s, terms(typology));
    await published(s, privacy(typology));

    const res = await login(s, app, u.email);
    expect(res.statusCode).toBe(451);
    expect(res.headers["cache-control"]).toBe("no-store");
    const body = res.json();
    expect(body.result.status).toBe(451);
    expect(typeof body.result.elapsed).toBe("number");
    expect(body.errors).toMatchObject({
      code: "terms_not_accepted",
      message: "The user must accept the terms and conditions.",
      items: [],
    });
    expect(body.content.url).toMatch(/^http:\/\/gatehouse\.test\/activityid\/v1\/user\/terms\?token=[A-Za-z0-9%._-]+$/);
    expect(body.content.assertions.objectType).toBe("assertions");
    expect(body.content.assertions.items).toEqual([
      {
        objectType: "assertion",
        key: P(typology),
        version: "1",
        displayName: "Send me news",
        type: "marketing",
        mandatory: false,
        typology,
        property: "default",
      },
      {
        objectType: "assertion",
        key: T(typology),
        version: "2024-01",
        displayName: "I accept the terms of use",
        type: "terms",
        mandatory: true,
        typology,
        property: "default",
      },
    ]);
    expect(body.content.session_info).toBeUndefined();
    // In the request's language.
    const es = (await login(s, app, u.email, { lang: "es" })).json();
    expect(es.errors.message).toBe("El usuario debe aceptar los términos y condiciones.");
    expect(es.content.assertions.items.map((i: { displayName: string }) => i.displayName)).toEqual([
      "Envíame novedades",
      "Acepto las condiciones de uso",
    ]);
    // A wrong password learns nothing about the terms.
    expect(
      (
        await send(s, "POST", "/activityid/v1/user/access", app.token, app.entrypoint, {
          ...loginBody(app.id, u.email),
          object: { ...loginBody(app.id, u.email).object, password: "wrong password!!" },
        })
      ).statusCode,
    ).toBe(403);

    // Declining the mandatory one is recorded and still 451 (only it is left); accepting it clears the login.
    const declined = await login(s, app, u.email, {
      assertions: { [T(typology)]: answer(false), [P(typology)]: answer(false) },
    });
    expect(declined.statusCode).toBe(451);
    expect(declined.json().content.assertions.items.map((i: { key: string }) => i.key)).toEqual([T(typology)]);
    const ok = await login(s, app, u.email, { assertions: { [T(typology)]: answer(true) } });
    expect(ok.statusCode).toBe(200);
    const user = ok.json().content.user;
    expect(user.assertions[T(typology)]).toMatchObject({ objectType: "assertion", value: true, version: "2024-01" });
    expect(Date.parse(user.assertions[T(typology)].accepted)).toBeGreaterThan(Date.now() - 60_000);
    expect(user.assertions[P(typology)]).toMatchObject({ value: false, version: "1" });
    expect(await acceptances(s, u.id)).toEqual([
      { key: T(typology), version: "2024-01", value: false, client_id: app.id, source_id: "pc", via: "login" },
      { key: P(typology), version: "1", value: false, client_id: app.id, source_id: "pc", via: "login" },
      { key: T(typology), version: "2024-01", value: true, client_id: app.id, source_id: "pc", via: "login" },
    ]);
    expect((await login(s, app, u.email)).statusCode).toBe(200);

    // A new version of the mandatory one: 451 again, for it alone (the declined optional one stays answered).
    await published(s, terms(typology, { version: "2024-06" }));
    const again = await login(s, app, u.email);
    expect(again.statusCode).toBe(451);
    expect(again.json().content.assertions.items).toEqual([
      expect.objectContaining({ key: T(typology), version: "2024-06", mandatory: true }),
    ]);
    // Accepted at the login through `full`, with fca: 206 names the missing mandatory data.
    const incomplete = await login(s, app, u.email, {
      from: app.full,
      query: "?fca=true",
      assertions: { [T(typology)]: answer(true) },
    });
    expect(incomplete.statusCode).toBe(206);
    expect(incomplete.json().errors.items).toEqual([
      expect.objectContaining({ field: "object.datas.birthday", code: "required" }),
    ]);
    expect(incomplete.json().content.user.assertions[T(typology)].version).toBe("2024-06");
    expect(incomplete.json().content.session_info.access_token).toEqual(expect.any(String));
  });

  it("object.assertions at login: an unknown key or a malformed answer is a 400, before the password is checked", async () => {
    const typology = await newTypology(s);
    const app = await typologyApp(s, typology);
    const u = await loggedUser(s, app);
    const unknown = await login(s, app, u.email, { assertions: { nope: answer(true) } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors.items).toEqual([
      expect.objectContaining({ field: "object.assertions.nope", code: "unknown_key" }),
    ]);
    const malformed = await login(s, app, u.email, {
      assertions: { [T(typology)]: { objectType: "assertion", value: "yes" } },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors.items[0].field).toBe(`object.assertions.${T(typology)}.value`);
  });

  it("acceptance by patch records the latest version (416 unknown_key for a key outside the catalog)", async () => {
    const typology = await newTypology(s);
    const app = await typologyApp(s, typology);
    const u = await loggedUser(s, app);
    await published(s, terms(typology));
    expect((await login(s, app, u.email)).statusCode).toBe(451);
    const patch = (assertions: Record<string, unknown>) =>
      send(s, "PATCH", `/activityid/v1/user/update/${u.id}`, u.accessToken, app.entrypoint, {
        actor: { id: String(u.id), objectType: "person" },
        verb: "update",
        object: { objectType: "user", password: PASSWORD, assertions },
        source: { id: "mobile", objectType: "device" },
      });
    const unknown = await patch({ nope: answer(true) });
    expect(unknown.statusCode).toBe(416);
    expect(unknown.json().errors.items).toEqual([
      expect.objectContaining({ field: "object.assertions.nope", code: "unknown_key" }),
    ]);
    const ok = await patch({ [T(typology)]: answer(true) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().content.user.assertions[T(typology)]).toMatchObject({ value: true, version: "2024-01" });
    expect((await patch({ [T(typology)]: answer(true) })).statusCode).toBe(304);
    expect(await acceptances(s, u.id)).toEqual([
      { key: T(typology), version: "2024-01", value: true, client_id: app.id, source_id: "mobile", via: "update" },
    ]);
    expect((await login(s, app, u.email)).statusCode).toBe(200);
  });

  it("MFA (428) comes before terms (451): answers sent with a login that stops at 428 are kept, /access/mfa answers the same 451", async () => {
    const typology = await newTypology(s);
    const app = await typologyApp(s, typology);
    const u = await loggedUser(s, app);
    const post = (url: string, token: string, body: unknown) => send(s, "POST", url, token, app.entrypoint, body);
    const secret = (await post("/activityid/v1/user/mfa/totp", u.accessToken, {})).json().content.totp.secret as string;
    const confirmed = await post("/activityid/v1/user/mfa/totp/confirm", u.accessToken, {
      code: totpCode(secret, Date.now()),
    });
    const recovery = confirmed.json().content.mfa.recovery_codes as string[];
    await published(s, terms(typology));

    const first = await login(s, app, u.email);
    expect(first.statusCode).toBe(428);
    const blocked = await post("/activityid/v1/user/access/mfa", app.token, {
      token: first.json().content.mfa.token,
      code: recovery[0],
    });
    expect(blocked.statusCode).toBe(451);
    expect(blocked.json().errors.code).toBe("terms_not_accepted");
    expect(blocked.json().content.url).toContain("/activityid/v1/user/terms?token=");
    expect(blocked.json().content.assertions.items).toEqual([
      expect.objectContaining({ objectType: "assertion", key: T(typology), mandatory: true }),
    ]);

    const second = await login(s, app, u.email, { assertions: { [T(typology)]: answer(true) } });
    expect(second.statusCode).toBe(428);
    const ok = await post("/activityid/v1/user/access/mfa", app.token, {
      token: second.json().content.mfa.token,
      code: recovery[1],
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().content.user.assertions[T(typology)]).toMatchObject({ value: true, version: "2024-01" });
  });

  it("the hosted OAuth login stops at 451 with the terms on the page, and goes on once they are accepted", async () => {
    const typology = await newTypology(s);
    const app = await typologyApp(s, typology);
    const u = await loggedUser(s, app);
    await published(s, terms(typology));
    const params = validAuthorize(app, pkce().challenge, { redirect_uri: REDIRECT });
    const signIn = async () =>
      postLogin(s, formOf(await s.app.inject({ method: "GET", url: authorizePath(params) })), u.email, PASSWORD);
    const stopped = await signIn();
    expect(stopped.statusCode).toBe(200);
    expect(stopped.headers.location).toBeUndefined();
    expect(stopped.body).toMatch(
      new RegExp(
        `<input type="checkbox" id="assertion-${T(typology)}" name="assertion.${T(typology)}" value="true" required`,
      ),
    );
    const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(stopped.body)?.[1] ?? "";
    const form = formOf(stopped);
    const answerPage = (accept: boolean) =>
      s.app.inject({
        method: "POST",
        url: "/oauth2/authorize",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: form.cookie },
        payload: new URLSearchParams({
          form_token: formOf(stopped).token,
          intent: "flow",
          page: "terms",
          flow_token: hidden("flow_token"),
          shown: hidden("shown"),
          ...(accept ? { [`assertion.${T(typology)}`]: "true" } : {}),
        }).toString(),
      });
    const refused = await answerPage(false);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain(`id="assertion-${T(typology)}-error"`);
    const accepted = await answerPage(true);
    expect(accepted.statusCode).toBe(303);
    expect(String(accepted.headers.location).startsWith(`${REDIRECT}?`)).toBe(true);
    // The flow is finished: its token gives no second code.
    expect((await answerPage(true)).statusCode).toBe(400);
    // Accepted: the next hosted login ends at the redirect URI at once.
    const done = await signIn();
    expect(done.statusCode).toBe(303);
    expect(String(done.headers.location).startsWith(`${REDIRECT}?`)).toBe(true);
  });

  it("the hosted page (content.url): lists the assertions, refuses a missing mandatory answer, records accepts and declines", async () => {
    const typology = await newTypology(s);
    const app = await typologyApp(s, typology);
    const u = await loggedUser(s, app);
    await published(s, terms(typology));
    await published(s, privacy(typology));
    const url = new URL((await login(s, app, u.email)).json().content.url);
    const token = url.searchParams.get("token")!;

    const page = await s.app.inject({
      method: "GET",
      url: `${url.pathname}${url.search}`,
      headers: { "accept-language": "es" },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.headers["cache-control"]).toBe("no-store");
    expect(page.body).toContain('<html lang="es">');
    expect(page.body).toContain("Acepto las condiciones de uso");
    expect(page.body).toContain(`<input type="checkbox" id="a1" name="accept" value="${T(typology)}" required`);
    expect(page.body).toContain(`name="accept" value="${P(typology)}">`);
    expect(page.body).toContain(`name="token" value="${token}"`);

    const post = (form: string, headers: Record<string, string> = {}) =>
      s.app.inject({
        method: "POST",
        url: url.pathname,
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", ...headers },
        payload: form,
      });
    const shown = [
      { key: P(typology), version: "1" },
      { key: T(typology), version: "2024-01" },
    ];
    expect((await post(termsForm(token, shown, [T(typology)]), { origin: "https://evil.example" })).statusCode).toBe(
      403,
    );
    const missing = await post(termsForm(token, shown, [P(typology)]));
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain("You must accept every item marked as required");
    expect(await acceptances(s, u.id)).toEqual([]);
    const outdated = await post(termsForm(token, [{ key: T(typology), version: "old" }], [T(typology)]));
    expect(outdated.statusCode).toBe(400);

    const done = await post(termsForm(token, shown, [T(typology)]), { origin: "http://gatehouse.test" });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain("Your answers were recorded");
    expect(await acceptances(s, u.id)).toEqual([
      { key: P(typology), version: "1", value: false, client_id: app.id, source_id: "unknown", via: "page" },
      { key: T(typology), version: "2024-01", value: true, client_id: app.id, source_id: "unknown", via: "page" },
    ]);
    const ok = await login(s, app, u.email);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().content.user.assertions).toMatchObject({
      [T(typology)]: { value: true, version: "2024-01" },
      [P(typology)]: { value: false, version: "1" },
    });
    // A forged or damaged token is the invalid page.
    expect(
      (await s.app.inject({ method: "GET", url: `${url.pathname}?token=${token.slice(0, -2)}xx` })).statusCode,
    ).toBe(400);
    expect((await s.app.inject({ method: "GET", url: url.pathname })).statusCode).toBe(400);
  });
});

function loginBody(appId: string, email: string) {
  return {
    actor: { id: appId, objectType: "application" },
    verb: "access",
    object: { objectType: "user", password: PASSWORD, ids: { email: { objectType: "user_id", value: email } } },
    source: SOURCE,
  };
}
