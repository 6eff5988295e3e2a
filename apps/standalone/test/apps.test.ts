import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, validApplication, type TestStack } from "./stack-helpers.ts";

let s: TestStack;
let token: string;
beforeAll(async () => {
  s = await startTestStack();
  token = await s.operatorToken();
});
afterAll(() => s.close());

const create = (body: unknown, opts: { token?: string; query?: string; lang?: string } = {}) =>
  s.app.inject({
    method: "POST",
    url: `/v2/apps${opts.query ?? ""}`,
    headers: {
      ...(opts.token !== "" ? { authorization: `Bearer ${opts.token ?? token}` } : {}),
      "content-type": "application/json",
      ...(opts.lang ? { "accept-language": opts.lang } : {}),
    },
    payload: JSON.stringify(body),
  });

async function appCount(): Promise<number> {
  const { rows } = await s.stores.db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM registry.clients WHERE kind = 'application'",
  );
  return rows[0]!.n;
}

describe("POST /v2/apps", () => {
  it("creates the application with every default, ids, Location and a password shown once", async () => {
    const res = await create(validApplication());
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.result.status).toBe(201);
    expect(typeof body.result.elapsed).toBe("number");
    const app = body.content;
    expect(app.id).toMatch(/^\d+_shop$/);
    expect(res.headers.location).toBe(`/v2/apps/${app.id}`);
    expect(app.objectType).toBe("application");
    expect(app.displayName).toBe("Shop");
    expect(Date.parse(app.created)).not.toBeNaN();
    expect(Buffer.from(app.password, "base64url").length).toBeGreaterThanOrEqual(16);
    const ep = app.entrypoints[0];
    expect(ep.id).toBe(`${app.id}_web`);
    expect(ep.assisted).toBe(false);
    expect(ep.passwordless).toBe(false);
    expect(ep.typology).toEqual({
      register: { objectType: "typology", id: "consumer" },
      work: { objectType: "typology", id: "consumer" },
    });
    expect(ep.fields[0]).toMatchObject({
      type: "id",
      key: "email",
      main: true,
      mandatory: true,
      requiresConfirmation: true,
      requiresVerification: false,
    });
    expect(ep.fields[2]).toMatchObject({
      type: "field",
      key: "name",
      mandatory: true,
      useForValidation: false,
      step: 1,
    });
    expect(ep.fields[3]).toMatchObject({ key: "birthday", mandatory: false, step: 2 });

    const read = await s.app.inject({
      method: "GET",
      url: `/v2/apps/${app.id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(read.statusCode).toBe(200);
    expect(read.json().content.id).toBe(app.id);
    expect(read.json().content).not.toHaveProperty("password");
    expect(read.body).not.toContain(app.password);

    const reveal = await s.app.inject({
      method: "GET",
      url: `/admin/v1/apps/${app.id}/password`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(reveal.statusCode).toBe(200);
    expect(reveal.json().content.password).toBe(app.password);
    const { rows } = await s.stores.db.query<{ doc: string }>(
      "SELECT row_to_json(a)::text AS doc FROM registry.clients a WHERE client_id = $1",
      [app.id],
    );
    expect(rows[0]!.doc).not.toContain(app.password);
  });

  it("uses the index for entry points without a key and a numeric id without an app key", async () => {
    const body = validApplication();
    delete body.key;
    delete body.entrypoints[0].key;
    const res = await create(body);
    expect(res.statusCode).toBe(201);
    const app = res.json().content;
    expect(app.id).toMatch(/^\d+$/);
    expect(app.entrypoints[0].id).toBe(`${app.id}_0`);
  });

  it("lets the new application get an APP_TOKEN with its own password", async () => {
    const app = (await create(validApplication())).json().content;
    const res = await s.app.inject({
      method: "POST",
      url: "/oauth2/token",
      headers: { authorization: s.basic(app.id, app.password), "content-type": "application/x-www-form-urlencoded" },
      payload: "grant_type=client_credentials",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().scope).toBe("users:access");
  });

  it("answers 401 without a valid token and 403 without the apps:write scope, creating nothing", async () => {
    const before = await appCount();
    const none = await create(validApplication(), { token: "" });
    expect(none.statusCode).toBe(401);
    expect(none.json().errors.code).toBe("unauthenticated");
    const garbage = await create(validApplication(), { token: "not.a.jwt" });
    expect(garbage.statusCode).toBe(401);
    const readOnly = await s.operatorToken("apps:read");
    const forbidden = await create(validApplication(), { token: readOnly });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().errors.code).toBe("insufficient_scope");
    expect(await appCount()).toBe(before);
  });

  it("refuses a revoked operator token", async () => {
    const t = await s.operatorToken();
    const revoke = await s.app.inject({
      method: "POST",
      url: "/oauth2/revoke",
      headers: {
        authorization: s.basic("test-operator", "operator-secret-0123456789"),
        "content-type": "application/x-www-form-urlencoded",
      },
      payload: `token=${t}`,
    });
    expect(revoke.statusCode).toBe(200);
    expect((await create(validApplication(), { token: t })).statusCode).toBe(401);
  });
});
