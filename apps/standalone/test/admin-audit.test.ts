import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, audit, INJECT_ADDRESS, OPERATOR_ACTOR, type AuditItem } from "./admin-flows.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { createApp, loggedUser, type FlowApp } from "./user-flows.ts";

// GET /admin/v1/audit (contract section 6): the registry's and the users
// service's logs merged newest first, filtered, paged with one cursor; no
// route changes or removes an entry. And the OpenAPI document of the admin API.
describe.each([
  ["PostgreSQL + Redis", false],
  ["the embedded default", true],
])("admin audit log on %s", (_name, embedded) => {
  let s: TestStack;
  let app: FlowApp;
  beforeAll(async () => {
    s = await startTestStack({ embedded });
    app = await createApp(s, "audited");
  });
  afterAll(() => s.close());

  /** Every entry of a query, page by page. */
  async function walk(query: Record<string, string>, limit: number): Promise<AuditItem[]> {
    const out: AuditItem[] = [];
    let cursor: string | undefined;
    do {
      const res = await admin(
        s,
        "GET",
        `/admin/v1/audit?${new URLSearchParams({ ...query, limit: String(limit), ...(cursor ? { cursor } : {}) })}`,
      );
      expect(res.statusCode).toBe(200);
      out.push(...res.json().content.items);
      cursor = res.json().content.next;
    } while (cursor);
    return out;
  }

  it("merges every service's entries newest first, each with id, time, actor, action, target, address, details", async () => {
    const u = await loggedUser(s, app);
    await admin(s, "POST", "/admin/v1/catalogs/brands", { body: { key: "merged", displayName: "Merged" } });
    await admin(s, "POST", `/admin/v1/users/${u.id}/lock`);
    await admin(s, "PATCH", `/admin/v1/apps/${app.id}`, { body: { mfa: "optional" } });
    await admin(s, "POST", `/admin/v1/users/${u.id}/unlock`);
    const items = await audit(s, { actor: OPERATOR_ACTOR, limit: "4" });
    expect(items.map((i) => [i.action, i.target])).toEqual([
      ["user.unlock", String(u.id)],
      ["application.update", app.id],
      ["user.lock", String(u.id)],
      ["catalog_entry.create", "brand/merged"],
    ]);
    expect(items[0]).toEqual({
      id: expect.stringMatching(/^users-\d+$/),
      time: expect.any(String),
      actor: OPERATOR_ACTOR,
      action: "user.unlock",
      target: String(u.id),
      address: INJECT_ADDRESS,
      details: { wasLocked: true },
    });
    expect(items[1]!.id).toMatch(/^registry-\d+$/);
    const times = items.map((i) => Date.parse(i.time));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it("records the client address of an application created by POST /v2/apps", async () => {
    const [created] = await audit(s, { target: app.id, action: "application.create" });
    expect(created).toMatchObject({ actor: OPERATOR_ACTOR, address: INJECT_ADDRESS });
  });

  it("filters by actor (full or bare id), action, target and since", async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    await admin(s, "POST", "/admin/v1/catalogs/typologies", { body: { key: "filtered", displayName: "F" } });
    await admin(s, "PATCH", "/admin/v1/catalogs/typologies/filtered", { body: { displayName: "F2" } });
    expect((await audit(s, { target: "typology/filtered" })).map((i) => i.action)).toEqual([
      "catalog_entry.update",
      "catalog_entry.create",
    ]);
    expect((await audit(s, { target: "typology/filtered", action: "catalog_entry.create" })).length).toBe(1);
    expect((await audit(s, { target: "typology/filtered", actor: "test-operator" })).length).toBe(2);
    expect((await audit(s, { target: "typology/filtered", actor: "client:someone-else" })).length).toBe(0);
    expect((await audit(s, { target: "typology/filtered", since: before })).length).toBe(2);
    expect(
      (await audit(s, { target: "typology/filtered", since: new Date(Date.now() + 60_000).toISOString() })).length,
    ).toBe(0);
    const bad = await admin(s, "GET", "/admin/v1/audit?since=yesterday");
    expect([bad.statusCode, bad.json().errors.items[0]]).toEqual([
      400,
      expect.objectContaining({ field: "query.since", code: "invalid_format" }),
    ]);
  });

  it("pages with one stable cursor across the logs: every entry once, also while new ones arrive", async () => {
    const u = await loggedUser(s, app);
    for (let i = 0; i < 3; i++) {
      await admin(s, "POST", `/admin/v1/users/${u.id}/logout`);
      await admin(s, "POST", "/admin/v1/catalogs/brands", { body: { key: `page${i}`, displayName: `P${i}` } });
    }
    const all = await walk({}, 200);
    const paged = await walk({}, 2);
    expect(paged.map((i) => i.id)).toEqual(all.map((i) => i.id));
    expect(new Set(all.map((i) => i.id)).size).toBe(all.length);
    // A page, then new entries, then the next page: it goes on where it was.
    const first = await admin(s, "GET", "/admin/v1/audit?limit=3");
    await admin(s, "POST", `/admin/v1/users/${u.id}/logout`);
    const second = await admin(s, "GET", `/admin/v1/audit?limit=3&cursor=${first.json().content.next}`);
    expect(second.json().content.items.map((i: AuditItem) => i.id)).toEqual(all.slice(3, 6).map((i) => i.id));
    const bad = await admin(s, "GET", "/admin/v1/audit?cursor=nonsense");
    expect([bad.statusCode, bad.json().errors.items[0].field]).toEqual([400, "cursor"]);
  });

  it("no route changes or removes an entry; reading needs admin:read", async () => {
    for (const method of ["PUT", "PATCH", "DELETE", "POST"] as const) {
      for (const url of ["/admin/v1/audit", "/admin/v1/audit/registry-1"]) {
        const res = await admin(s, method, url, method === "DELETE" ? {} : { body: {} });
        expect([method, url, res.statusCode]).toEqual([method, url, 404]);
      }
    }
    expect((await admin(s, "GET", "/admin/v1/audit", { token: null })).statusCode).toBe(401);
    expect((await admin(s, "GET", "/admin/v1/audit", { scope: "admin:write" })).statusCode).toBe(403);
    expect((await admin(s, "GET", "/admin/v1/audit", { token: app.token })).statusCode).toBe(403);
    expect((await admin(s, "GET", "/admin/v1/audit", { scope: "admin:read" })).statusCode).toBe(200);
  });

  it("the OpenAPI document describes every admin route", async () => {
    const doc = (await s.app.inject({ method: "GET", url: "/openapi.json" })).json();
    const expected: Record<string, string[]> = {
      "/admin/v1/apps": ["get"],
      "/admin/v1/apps/{client_id}": ["get", "patch"],
      "/admin/v1/apps/{client_id}/password": ["get"],
      "/admin/v1/apps/{client_id}/password/rotate": ["post"],
      "/admin/v1/apps/{client_id}/entrypoints": ["post"],
      "/admin/v1/apps/{client_id}/entrypoints/{entrypoint_id}": ["patch"],
      "/admin/v1/catalogs/{kind}": ["get", "post"],
      "/admin/v1/catalogs/{kind}/{key}": ["get", "patch", "delete"],
      "/admin/v1/assertions": ["get", "post"],
      "/admin/v1/assertions/{key}": ["get"],
      "/admin/v1/users": ["get"],
      "/admin/v1/users/{id}": ["get", "delete"],
      "/admin/v1/users/{id}/lock": ["post"],
      "/admin/v1/users/{id}/unlock": ["post"],
      "/admin/v1/users/{id}/logout": ["post"],
      "/admin/v1/users/{id}/export": ["get"],
      "/admin/v1/users/{id}/identities/{provider}": ["delete"],
      "/admin/v1/audit": ["get"],
    };
    for (const [path, methods] of Object.entries(expected)) {
      for (const m of methods) {
        const op = doc.paths[path]?.[m];
        expect([path, m, op?.tags, op?.security]).toEqual([path, m, ["admin"], [{ bearer: [] }]]);
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["401", "403"]));
      }
    }
  });
});
