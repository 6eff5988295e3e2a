import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin } from "./admin-flows.ts";
import { startTestStack, type TestStack } from "./stack-helpers.ts";
import { createApp, loggedUser, type FlowApp } from "./user-flows.ts";

// The admin actions without a body (rotate, lock, unlock, logout, DELETE):
// contract section 2 rejects unknown JSON members, so a body with members is
// 400 (one `unknown_member` item each) and changes nothing; no body, an empty
// one or `{}` is the action.

describe("admin actions without a body", () => {
  let s: TestStack;
  let app: FlowApp;
  beforeAll(async () => {
    s = await startTestStack();
    app = await createApp(s, "bodies");
  });
  afterAll(() => s.close());

  it("refuses members it does not know, and changes nothing", async () => {
    const user = await loggedUser(s, app);
    const brand = await admin(s, "POST", "/admin/v1/catalogs/brands", {
      body: { key: "bodies", displayName: "Bodies" },
    });
    expect(brand.statusCode).toBe(201);
    const actions: [string, string][] = [
      ["POST", `/admin/v1/apps/${app.id}/password/rotate`],
      ["POST", `/admin/v1/users/${user.id}/lock`],
      ["POST", `/admin/v1/users/${user.id}/unlock`],
      ["POST", `/admin/v1/users/${user.id}/logout`],
      ["DELETE", `/admin/v1/users/${user.id}`],
      ["DELETE", "/admin/v1/catalogs/brands/bodies"],
    ];
    for (const [method, url] of actions) {
      const res = await admin(s, method as "POST" | "DELETE", url, { body: { reason: "x", force: true } });
      expect([
        method,
        url,
        res.statusCode,
        res.json().errors?.items?.map((i: { field: string; code: string }) => `${i.field}:${i.code}`),
      ]).toEqual([method, url, 400, ["reason:unknown_member", "force:unknown_member"]]);
      const list = await admin(s, method as "POST" | "DELETE", url, { body: [] });
      expect([method, url, list.statusCode]).toEqual([method, url, 400]);
    }
    const token = await s.app.inject({
      method: "POST",
      url: "/oauth2/token",
      headers: { authorization: s.basic(app.id, app.password), "content-type": "application/x-www-form-urlencoded" },
      payload: "grant_type=client_credentials",
    });
    expect(token.statusCode).toBe(200);
    const view = (await admin(s, "GET", `/admin/v1/users/${user.id}`)).json().content.user;
    expect([view.status, view.sessions]).toEqual(["active", 1]);
    expect(
      (await admin(s, "GET", "/admin/v1/catalogs/brands?limit=200"))
        .json()
        .content.items.map((i: { key: string }) => i.key),
    ).toContain("bodies");

    expect((await admin(s, "POST", `/admin/v1/users/${user.id}/lock`, { body: {} })).statusCode).toBe(200);
    expect((await admin(s, "POST", `/admin/v1/users/${user.id}/unlock`)).statusCode).toBe(200);
    expect((await admin(s, "DELETE", "/admin/v1/catalogs/brands/bodies", { body: {} })).statusCode).toBe(204);
  });
});
