import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startUpstreamIdp, type UpstreamIdp } from "@gatehouse/testing/upstream-idp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, audit } from "./admin-flows.ts";
import { startTestStack, validApplication, type TestStack } from "./stack-helpers.ts";
import { createApp } from "./user-flows.ts";

// /admin/v1/identity-providers and entry points' identityProviders (contract
// section 11) against a REAL OpenID Connect issuer: oidc-provider on loopback.

const CALLBACK = "http://gatehouse.test/oauth2/idp/callback";
const items = (res: { json(): any }) =>
  res.json().errors.items.map((i: { field: string; code: string }) => `${i.field}:${i.code}`);

describe.each([
  ["PostgreSQL + Redis", false],
  ["the embedded default", true],
])("identity providers on %s", (_name, embedded) => {
  let s: TestStack;
  let idp: UpstreamIdp;
  beforeAll(async () => {
    idp = await startUpstreamIdp([CALLBACK]);
    s = await startTestStack({ embedded, env: { IDP_TIMEOUT_MS: "2000" } });
  });
  afterAll(async () => {
    await s.close();
    await idp.close();
  });

  it("registers an OIDC issuer (discovery + JWKS read), never returns the secret, audits, lists, changes, deletes", async () => {
    const body = { key: "acme", displayName: "ACME ID", type: "oidc", issuer: idp.issuer, clientId: idp.clientId };
    const created = await admin(s, "POST", "/admin/v1/identity-providers", {
      body: { ...body, clientSecret: idp.clientSecret, trustEmail: true },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.headers.location).toBe("/admin/v1/identity-providers/acme");
    const content = created.json().content;
    expect(content).toMatchObject({
      ...body,
      scopes: ["openid", "email", "profile"],
      trustEmail: true,
      hasClientSecret: true,
      callbackUrl: CALLBACK,
    });
    expect(created.body).not.toContain(idp.clientSecret);
    const read = await admin(s, "GET", "/admin/v1/identity-providers/acme", { scope: "admin:read" });
    expect(read.json().content).toEqual(content);
    expect(read.body).not.toContain(idp.clientSecret);
    const list = await admin(s, "GET", "/admin/v1/identity-providers", { scope: "admin:read" });
    expect(list.json().content.items.map((p: { key: string }) => p.key)).toContain("acme");

    const taken = await admin(s, "POST", "/admin/v1/identity-providers", {
      body: { ...body, clientSecret: "x" },
    });
    expect([taken.statusCode, taken.json().errors.code]).toEqual([409, "identity_provider_key_taken"]);

    const patched = await admin(s, "PATCH", "/admin/v1/identity-providers/acme", {
      body: { displayName: "ACME", clientSecret: "rotated-secret", trustEmail: false },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().content).toMatchObject({ displayName: "ACME", trustEmail: false, hasClientSecret: true });

    const entries = await audit(s, { target: "acme" });
    expect(entries.map((e) => e.action)).toEqual(["identity_provider.update", "identity_provider.create"]);
    expect(JSON.stringify(entries)).not.toContain(idp.clientSecret);
    expect(JSON.stringify(entries)).not.toContain("rotated-secret");
    expect(entries[0]!.details.changed).toEqual(["displayName", "trustEmail", "clientSecret"]);

    const removed = await admin(s, "DELETE", "/admin/v1/identity-providers/acme");
    expect(removed.statusCode).toBe(204);
    const gone = await admin(s, "GET", "/admin/v1/identity-providers/acme", { scope: "admin:read" });
    expect([gone.statusCode, gone.json().errors.code]).toEqual([404, "identity_provider_not_found"]);
  });

  it("an unreachable, silent or non-OIDC issuer is 400 invalid_value naming issuer, within the timeout", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    // A server that accepts and never answers: the timeout (2 s here, 10 s by default) ends it.
    const silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const notOidc = createServer((_q, res) => res.writeHead(404).end("no"));
    await new Promise<void>((r) => notOidc.listen(0, "127.0.0.1", r));
    try {
      for (const issuer of [
        `http://127.0.0.1:${port}`,
        `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
        `http://127.0.0.1:${(notOidc.address() as AddressInfo).port}`,
      ]) {
        const started = Date.now();
        const res = await admin(s, "POST", "/admin/v1/identity-providers", {
          body: { key: "down", displayName: "Down", issuer, clientId: "c", clientSecret: "s" },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors.code).toBe("invalid_value");
        expect(res.json().errors.items).toEqual([expect.objectContaining({ field: "issuer", code: "invalid_value" })]);
        expect(Date.now() - started).toBeLessThan(8000);
      }
    } finally {
      silent.closeAllConnections();
      silent.close();
      notOidc.close();
    }
    expect((await admin(s, "GET", "/admin/v1/identity-providers/down", { scope: "admin:read" })).statusCode).toBe(404);
  });

  it("checks every rule: key, URLs (https, no private address; http only on loopback), oauth2 endpoints and claims, presets", async () => {
    const bad = await admin(s, "POST", "/admin/v1/identity-providers", {
      body: {
        key: "Bad Key",
        type: "oauth2",
        displayName: "",
        clientId: "",
        clientSecret: "",
        authorizationEndpoint: "ftp://example.com/a",
        tokenEndpoint: "https://10.0.0.1/token",
        claims: { email: "mail", colour: "c" },
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(items(bad)).toEqual([
      "key:invalid_format",
      "displayName:required",
      "clientId:required",
      "clientSecret:required",
      "authorizationEndpoint:invalid_value",
      "tokenEndpoint:invalid_value",
      "userinfoEndpoint:required",
      "claims.subject:required",
      "claims.colour:unknown_member",
    ]);
    const preset = await admin(s, "POST", "/admin/v1/identity-providers", {
      body: { key: "gh", preset: "github", clientId: "gh-client", clientSecret: "gh-secret" },
    });
    expect(preset.statusCode).toBe(201);
    expect(preset.json().content).toMatchObject({
      key: "gh",
      displayName: "GitHub",
      type: "oauth2",
      preset: "github",
      authorizationEndpoint: "https://github.com/login/oauth/authorize",
      claims: { subject: "id", email: "email", name: "name" },
    });
    const wrongPreset = await admin(s, "POST", "/admin/v1/identity-providers", {
      body: { key: "x", preset: "myspace", clientId: "c", clientSecret: "s" },
    });
    expect(items(wrongPreset)).toContain("preset:invalid_value");
    const unknownMember = await admin(s, "POST", "/admin/v1/identity-providers", {
      body: { key: "y", displayName: "Y", issuer: idp.issuer, clientId: "c", clientSecret: "s", colour: "red" },
    });
    expect(items(unknownMember)).toEqual(["colour:unknown_member"]);
  });

  it("entry points offer registered providers (POST /v2/apps and admin endpoints); an unknown key is 400; in use → 409", async () => {
    const made = await admin(s, "POST", "/admin/v1/identity-providers", {
      body: { key: "upstream", displayName: "Upstream", issuer: idp.issuer, clientId: idp.clientId, clientSecret: "s" },
    });
    expect(made.statusCode).toBe(201);
    const op = await s.operatorToken();
    const post = (body: unknown) =>
      s.app.inject({
        method: "POST",
        url: "/v2/apps",
        headers: { authorization: `Bearer ${op}`, "content-type": "application/json" },
        payload: JSON.stringify(body),
      });
    const app = await createApp(s, "idp", (b) => (b.entrypoints[0].identityProviders = ["upstream"]));
    const wrong = validApplication();
    wrong.entrypoints[0].identityProviders = ["upstream", "nope"];
    const unknown = await post(wrong);
    expect(unknown.statusCode).toBe(400);
    expect(items(unknown)).toEqual(["entrypoints.0.identityProviders.1:unknown_key"]);

    const eps = await admin(s, "GET", `/admin/v1/apps/${app.id}`, { scope: "admin:read" });
    expect(JSON.stringify(eps.json().content)).toContain('"identityProviders":["upstream"]');
    const patch = (identityProviders: string[]) =>
      admin(s, "PATCH", `/admin/v1/apps/${app.id}/entrypoints/${app.entrypoint}`, { body: { identityProviders } });
    expect(items(await patch(["ghost"]))).toEqual(["identityProviders.0:unknown_key"]);
    expect((await patch(["upstream"])).json().content.identityProviders).toEqual(["upstream"]);
    const inUse = await admin(s, "DELETE", "/admin/v1/identity-providers/upstream");
    expect([inUse.statusCode, inUse.json().errors.code]).toEqual([409, "in_use"]);
    expect((await patch([])).statusCode).toBe(200);
    expect((await admin(s, "DELETE", "/admin/v1/identity-providers/upstream")).statusCode).toBe(204);
  });
});
