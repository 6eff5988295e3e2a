import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { newTypology, publish } from "./terms-flows.ts";

// POST/GET /admin/v1/assertions (contract section 7): operator token with
// scope admin, every rule a 400 item, a repeated version a 409.
describe.each([
  ["PostgreSQL + Redis", false],
  ["the embedded default", true],
])("admin legal assertions on %s", (_name, embedded) => {
  let s: TestStack;
  beforeAll(async () => void (s = await startTestStack({ embedded })));
  afterAll(() => s.close());

  const get = async (url: string, token?: string) =>
    s.app.inject({ method: "GET", url, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });

  it("201 with the stored assertion and Location; new versions; list (latest, by typology) and versions (latest first)", async () => {
    const typology = await newTypology(s);
    const body = {
      key: "tos-a",
      displayName: { en: "Terms", es: "Condiciones" },
      type: "terms",
      typology,
      mandatory: true,
      version: "1.0",
    };
    const res = await publish(s, body);
    expect(res.statusCode).toBe(201);
    expect(res.headers.location).toBe("/admin/v1/assertions/tos-a");
    const content = res.json().content;
    expect(content).toEqual({ objectType: "assertion", ...body, property: "default", published: expect.any(String) });
    expect(res.json().result.status).toBe(201);
    // displayName as one string is the English text; mandatory defaults to false.
    const v2 = await publish(s, { key: "tos-a", displayName: "Terms v2", type: "terms", typology, version: "2.0" });
    expect(v2.statusCode).toBe(201);
    expect(v2.json().content).toMatchObject({ displayName: { en: "Terms v2" }, mandatory: false, version: "2.0" });
    await publish(s, {
      key: "tos-b",
      displayName: { en: "Other" },
      type: "privacy",
      typology: "consumer",
      version: "x",
    });

    const op = await s.operatorToken();
    const list = await get(`/admin/v1/assertions?typology=${typology}`, op);
    expect(list.statusCode).toBe(200);
    expect(list.json().content).toEqual({
      objectType: "assertions",
      items: [expect.objectContaining({ key: "tos-a", version: "2.0" })],
    });
    const all = (await get("/admin/v1/assertions", op))
      .json()
      .content.items.map((i: { key: string; version: string }) => `${i.key}@${i.version}`);
    expect(all).toEqual(expect.arrayContaining(["tos-a@2.0", "tos-b@x"]));
    expect(all).not.toContain("tos-a@1.0");
    const versions = await get("/admin/v1/assertions/tos-a", op);
    expect(versions.statusCode).toBe(200);
    expect(versions.json().content.versions.map((v: { version: string }) => v.version)).toEqual(["2.0", "1.0"]);
    const missing = await get("/admin/v1/assertions/nothing-here", op);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errors.code).toBe("assertion_not_found");
  });

  it("409 for a version the key already has; 400 with one item per broken rule", async () => {
    const body = { key: "dup", displayName: { en: "Dup" }, type: "terms", typology: "consumer", version: "1" };
    expect((await publish(s, body)).statusCode).toBe(201);
    const again = await publish(s, { ...body, displayName: { en: "Changed" } });
    expect(again.statusCode).toBe(409);
    expect(again.json().errors).toMatchObject({
      code: "assertion_version_taken",
      items: [expect.objectContaining({ field: "version", code: "duplicate" })],
    });

    const bad = await publish(s, {
      key: "Bad Key",
      displayName: { es: "Solo español" },
      type: "terms",
      typology: "nope",
      property: "nope",
      version: "1",
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .errors.items.map((i: { field: string; code: string }) => `${i.field}:${i.code}`)
        .sort(),
    ).toEqual(["displayName.en:required", "key:invalid_format", "property:unknown_key", "typology:unknown_key"].sort());
    const shape = await publish(s, {
      key: "x",
      displayName: { en: "X" },
      type: "terms",
      typology: "consumer",
      version: "",
      extra: 1,
    });
    expect(shape.statusCode).toBe(400);
    expect(
      shape
        .json()
        .errors.items.map((i: { field: string }) => i.field)
        .sort(),
    ).toEqual(["extra", "version"]);
    // The body's shape and the rules in one answer (section 2: every violation); nothing published.
    const mixed = await publish(s, {
      key: "Bad Key",
      displayName: { en: "M" },
      type: "terms",
      typology: "nope",
      mandatory: "yes",
      version: "1",
      extra: 1,
    });
    expect(
      mixed
        .json()
        .errors.items.map((i: { field: string; code: string }) => `${i.field}:${i.code}`)
        .sort(),
    ).toEqual(["extra:unknown_member", "mandatory:invalid_type", "key:invalid_format", "typology:unknown_key"].sort());
  });

  it("401 without a valid token, 403 without the admin scope", async () => {
    const body = { key: "auth", displayName: { en: "A" }, type: "terms", typology: "consumer", version: "1" };
    const none = await s.app.inject({
      method: "POST",
      url: "/admin/v1/assertions",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify(body),
    });
    expect(none.statusCode).toBe(401);
    expect(none.json().errors.code).toBe("unauthenticated");
    expect((await publish(s, body, "not-a-token")).statusCode).toBe(401);
    const readOnly = await s.operatorToken("apps:read");
    const forbidden = await publish(s, body, readOnly);
    expect(forbidden.statusCode).toBe(403);
    expect((await get("/admin/v1/assertions", readOnly)).statusCode).toBe(403);
    expect((await get("/admin/v1/assertions")).statusCode).toBe(401);
  });
});
