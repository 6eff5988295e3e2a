import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, audit, INJECT_ADDRESS, OPERATOR_ACTOR } from "./admin-flows.ts";
import { startTestStack, validApplication, type TestStack } from "./stack-helpers.ts";
import { createApp, registerEnvelope, send, type FlowApp } from "./user-flows.ts";

// /admin/v1/apps (contract sections 6 and 7): search, read, change, reveal and
// rotate the password, add and change entry points; every change audited.
describe.each([
  ["PostgreSQL + Redis", false],
  ["the embedded default", true],
])("admin applications on %s", (_name, embedded) => {
  let s: TestStack;
  let shop: FlowApp;
  beforeAll(async () => {
    s = await startTestStack({ embedded });
    shop = await createApp(s, "shop", (b) => (b.displayName = "Zebra Shop"));
  });
  afterAll(() => s.close());

  const tokenWith = (app: { id: string }, secret: string) =>
    s.app.inject({
      method: "POST",
      url: "/oauth2/token",
      headers: { authorization: s.basic(app.id, secret), "content-type": "application/x-www-form-urlencoded" },
      payload: "grant_type=client_credentials",
    });

  it("lists and searches applications in pages; reads one as in the 201 without the password, with its settings", async () => {
    const other = await createApp(s, "other", (b) => (b.displayName = "Another zebra"));
    const list = await admin(s, "GET", "/admin/v1/apps?limit=1", { scope: "admin:read" });
    expect(list.statusCode).toBe(200);
    expect(list.json().result.status).toBe(200);
    const first = list.json().content;
    expect(first.items).toHaveLength(1);
    expect(first.next).toEqual(expect.any(String));
    const second = (await admin(s, "GET", `/admin/v1/apps?limit=1&cursor=${encodeURIComponent(first.next)}`)).json()
      .content;
    expect(second.items.map((a: { id: string }) => a.id)).not.toEqual(first.items.map((a: { id: string }) => a.id));
    const zebras = (await admin(s, "GET", "/admin/v1/apps?q=ZEBRA")).json().content;
    expect(zebras.items.map((a: { id: string }) => a.id).sort()).toEqual([shop.id, other.id].sort());
    expect(zebras).not.toHaveProperty("next");
    const byPrefix = (await admin(s, "GET", `/admin/v1/apps?q=${shop.id.slice(0, 12)}`)).json().content.items;
    expect(byPrefix.map((a: { id: string }) => a.id)).toContain(shop.id);

    const got = await admin(s, "GET", `/admin/v1/apps/${shop.id}`, { scope: "admin:read" });
    expect(got.statusCode).toBe(200);
    const app = got.json().content;
    expect(app).toMatchObject({
      id: shop.id,
      objectType: "application",
      displayName: "Zebra Shop",
      whitelist: ["https://shop.example.com/callback"],
      defaultCallback: "",
      mfa: "off",
    });
    expect(app.entrypoints[0]).toMatchObject({ id: shop.entrypoint, typology: { register: { id: "consumer" } } });
    expect(Date.parse(app.created)).not.toBeNaN();
    expect(got.body).not.toContain(shop.password);
    expect(got.headers["cache-control"]).toBe("no-store");
    expect((await admin(s, "GET", "/admin/v1/apps/999999999999")).statusCode).toBe(404);
    const bad = await admin(s, "GET", "/admin/v1/apps?limit=0");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.items[0]).toMatchObject({ field: "query.limit" });
    expect((await admin(s, "GET", "/admin/v1/apps?limit=201")).statusCode).toBe(400);
    expect((await admin(s, "GET", "/admin/v1/apps?cursor=bogus")).json().errors.items[0]).toMatchObject({
      field: "cursor",
      code: "invalid_value",
    });
  });

  it("PATCH changes displayName, url, redirectUris, a contact person and the settings under the creation rules, audited", async () => {
    const a = await createApp(s, "patch");
    const res = await admin(s, "PATCH", `/admin/v1/apps/${a.id}`, {
      body: {
        displayName: "Patched",
        url: "https://patched.example.com",
        redirectUris: ["https://patched.example.com/cb"],
        contact: { productOwner: { objectType: "person", schemaOrg: { email: { value: "po2@example.com" } } } },
        whitelist: ["https://patched.example.com/done"],
        mfa: "optional",
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().content).toMatchObject({
      id: a.id,
      displayName: "Patched",
      url: "https://patched.example.com",
      redirectUris: ["https://patched.example.com/cb"],
      contact: {
        productOwner: { schemaOrg: { email: { value: "po2@example.com" } } },
        support: { schemaOrg: { mobile: { value: "+34600111222" } } },
      },
      whitelist: ["https://patched.example.com/done"],
      mfa: "optional",
    });
    const bad = await admin(s, "PATCH", `/admin/v1/apps/${a.id}`, {
      body: {
        url: "nope",
        redirectUris: ["https://x.example.com/#f"],
        contact: { support: { objectType: "person", schemaOrg: { email: { value: "x@example.com" } } } },
      },
    });
    expect(bad.statusCode).toBe(400);
    // The body's shape (the support person needs a mobile: its table row too) and the rules, in one answer (section 2: every violation).
    expect(bad.json().errors.items.map((i: { field: string; code: string }) => `${i.field}:${i.code}`)).toEqual([
      "contact.support.schemaOrg.mobile:required",
      "url:invalid_format",
      "contact.support.schemaOrg.mobile.value:required",
      "redirectUris.0:invalid_format",
    ]);
    const semantic = await admin(s, "PATCH", `/admin/v1/apps/${a.id}`, {
      body: { url: "nope", redirectUris: ["https://x.example.com/#f"], mfa: "sometimes" },
    });
    expect(semantic.json().errors.items.map((i: { field: string; code: string }) => `${i.field}:${i.code}`)).toEqual([
      "url:invalid_format",
      "redirectUris.0:invalid_format",
      "mfa:invalid_value",
    ]);
    expect((await admin(s, "PATCH", `/admin/v1/apps/${a.id}`, { body: { key: "nope" } })).json().errors.items).toEqual([
      expect.objectContaining({ field: "key", code: "unknown_member" }),
    ]);
    expect((await admin(s, "GET", `/admin/v1/apps/${a.id}`)).json().content.displayName).toBe("Patched");
    const [entry] = await audit(s, { target: a.id, action: "application.update" });
    expect(entry).toMatchObject({
      actor: OPERATOR_ACTOR,
      address: INJECT_ADDRESS,
      details: { changed: ["displayName", "url", "redirectUris", "whitelist", "mfa", "contact.productOwner"] },
    });
    expect(JSON.stringify(entry)).not.toContain("po2@example.com");
  });

  it("reveals the password (audited) and rotates it: shown once, the old one stops at once even where it was cached", async () => {
    const a = await createApp(s, "rotate");
    expect((await tokenWith(a, a.password)).statusCode).toBe(200); // cached by the auth service from here on
    const reveal = await admin(s, "GET", `/admin/v1/apps/${a.id}/password`, { scope: "admin:read" });
    expect(reveal.statusCode).toBe(200);
    expect(reveal.headers["cache-control"]).toBe("no-store");
    expect(reveal.json().content).toEqual({ id: a.id, password: a.password });
    const rotated = await admin(s, "POST", `/admin/v1/apps/${a.id}/password/rotate`, {
      headers: { "content-type": "application/json" },
    });
    expect(rotated.statusCode).toBe(200);
    const password = rotated.json().content.password;
    expect(password).not.toBe(a.password);
    expect(Buffer.from(password, "base64url").length).toBe(32);
    expect((await tokenWith(a, a.password)).statusCode).toBe(401);
    expect((await tokenWith(a, password)).statusCode).toBe(200);
    expect((await admin(s, "GET", `/admin/v1/apps/${a.id}/password`)).json().content.password).toBe(password);
    const entries = await audit(s, { target: a.id });
    expect(entries.map((e) => e.action)).toEqual([
      "client_secret.reveal",
      "client_secret.rotate",
      "client_secret.reveal",
      "application.create",
    ]);
    expect(JSON.stringify(entries)).not.toContain(password);
    expect((await admin(s, "POST", "/admin/v1/apps/999999999999/password/rotate")).statusCode).toBe(404);
  });

  it("adds an entry point (201, every rule of section 3) and changes one; a user can register through the new one", async () => {
    const a = await createApp(s, "eps");
    const ep = { ...validApplication().entrypoints[0], key: "kiosk", displayName: "Kiosk" };
    const added = await admin(s, "POST", `/admin/v1/apps/${a.id}/entrypoints`, { body: ep });
    expect(added.statusCode).toBe(201);
    expect(added.json().content).toMatchObject({
      id: `${a.id}_kiosk`,
      displayName: "Kiosk",
      assisted: false,
      passwordless: false,
    });
    expect(added.json().content.fields[2]).toMatchObject({
      key: "name",
      mandatory: true,
      useForValidation: false,
      step: 1,
    });
    const again = await admin(s, "POST", `/admin/v1/apps/${a.id}/entrypoints`, { body: ep });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors.items).toEqual([expect.objectContaining({ field: "key", code: "duplicate" })]);
    const broken = await admin(s, "POST", `/admin/v1/apps/${a.id}/entrypoints`, {
      body: {
        ...ep,
        key: "x",
        fields: [
          {
            objectType: "fieldConfig",
            type: "id",
            key: "screen_name",
            main: true,
            mandatory: true,
            requiresConfirmation: true,
          },
          { objectType: "fieldConfig", type: "field", key: "shoe_size" },
        ],
      },
    });
    expect(broken.json().errors.items.map((i: { field: string; code: string }) => `${i.field}:${i.code}`)).toEqual([
      "fields.0.requiresConfirmation:not_allowed",
      "fields.1.key:unknown_key",
    ]);
    expect(
      (await admin(s, "POST", `/admin/v1/apps/${a.id}/entrypoints`, { body: { ...ep, extra: 1 } })).json().errors
        .items[0],
    ).toMatchObject({ field: "extra", code: "unknown_member" });
    // The structure's violations and the rules' in one answer; nothing added.
    const mixed = await admin(s, "POST", `/admin/v1/apps/${a.id}/entrypoints`, {
      body: { ...ep, key: "Bad Key", extra: 1, assisted: "no", fields: [{ ...ep.fields[0], key: "screen_name" }] },
    });
    expect(
      mixed
        .json()
        .errors.items.map((i: { field: string; code: string }) => `${i.field}:${i.code}`)
        .sort(),
    ).toEqual(
      [
        "extra:unknown_member",
        "assisted:invalid_type",
        "key:invalid_format",
        "fields.0.requiresConfirmation:not_allowed",
      ].sort(),
    );
    const email = `kiosk${Date.now()}@example.com`;
    const reg = await send(
      s,
      "POST",
      "/activityid/v1/user/register",
      a.token,
      `${a.id}_kiosk`,
      registerEnvelope(a, email),
    );
    expect(reg.statusCode).toBe(201);

    const patched = await admin(s, "PATCH", `/admin/v1/apps/${a.id}/entrypoints/${a.id}_kiosk`, {
      body: { displayName: "Kiosk 2", passwordless: true },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().content).toMatchObject({ id: `${a.id}_kiosk`, displayName: "Kiosk 2", passwordless: true });
    const mixedPatch = await admin(s, "PATCH", `/admin/v1/apps/${a.id}/entrypoints/${a.id}_kiosk`, {
      body: { displayName: 5, fields: [{ ...ep.fields[0], key: "screen_name" }] },
    });
    expect(mixedPatch.json().errors.items.map((i: { field: string; code: string }) => `${i.field}:${i.code}`)).toEqual([
      "displayName:invalid_type",
      "fields.0.requiresConfirmation:not_allowed",
    ]);
    const missing = await admin(s, "PATCH", `/admin/v1/apps/${a.id}/entrypoints/${a.id}_nope`, {
      body: { displayName: "x" },
    });
    expect([missing.statusCode, missing.json().errors.code]).toEqual([404, "entrypoint_not_found"]);
    expect(
      (await admin(s, "GET", `/admin/v1/apps/${a.id}`)).json().content.entrypoints.map((e: { id: string }) => e.id),
    ).toEqual([a.entrypoint, `${a.id}_kiosk`]);
    expect((await audit(s, { target: `${a.id}_kiosk` })).map((e) => e.action)).toEqual([
      "entrypoint.update",
      "entrypoint.create",
    ]);
  });

  it("401 without a valid token and 403 without the scope, on every route", async () => {
    const routes: [string, string, unknown?][] = [
      ["GET", "/admin/v1/apps"],
      ["GET", `/admin/v1/apps/${shop.id}`],
      ["PATCH", `/admin/v1/apps/${shop.id}`, { mfa: "off" }],
      ["GET", `/admin/v1/apps/${shop.id}/password`],
      ["POST", `/admin/v1/apps/${shop.id}/password/rotate`],
      ["POST", `/admin/v1/apps/${shop.id}/entrypoints`, {}],
      ["PATCH", `/admin/v1/apps/${shop.id}/entrypoints/${shop.entrypoint}`, {}],
    ];
    for (const [method, url, body] of routes) {
      const none = await admin(s, method as "GET", url, { token: null, body });
      expect([url, none.statusCode, none.json().errors.code]).toEqual([url, 401, "unauthenticated"]);
      expect(none.headers["www-authenticate"]).toMatch(/^Bearer/);
      expect((await admin(s, method as "GET", url, { token: "not-a-token", body })).statusCode).toBe(401);
      expect((await admin(s, method as "GET", url, { token: shop.token, body })).statusCode).toBe(403);
      const wrongScope = method === "GET" ? "admin:write" : "admin:read";
      const forbidden = await admin(s, method as "GET", url, { scope: wrongScope, body });
      expect([url, forbidden.statusCode, forbidden.json().errors.code]).toEqual([url, 403, "insufficient_scope"]);
    }
  });
});
