import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthService, ConfirmationDeliveryService, DeliveryDecision, RegistryService } from "@gatehouse/proto";
import { InternalTokens } from "@gatehouse/rpc";
import { KeyRing, parseSecretKey } from "@gatehouse/secrets";
import { freshDatabase, redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { expectAdminJourney } from "./http-admin.ts";
import { createAppWithToken, expectUserJourney, registerUser, tokenRequest } from "./http-users.ts";
import { freePort, runEntry, stopChild, waitReady, type Spawned } from "./processes.ts";
import { OPERATOR, validApplication } from "./stack-helpers.ts";
import { startUpstreamIdp, type UpstreamIdp } from "@gatehouse/testing/upstream-idp";
import { atProvider, hiddenOf } from "./social-flows.ts";
import { pkce } from "./oauth-flow.ts";
import { startReceiver } from "./webhook-receiver.ts";

// npm run start:services over real HTTP: gateway, registry, auth, users and
// the confirmation worker as five processes on PostgreSQL + Redis + BullMQ,
// Connect between them.
let child: Spawned;
let gw: string;
let registryUrl: string;
let authUrl: string;
let usersUrl: string;
let workerUrl: string;
let dataDir: string;
let idp: UpstreamIdp;
const secretKey = randomBytes(32).toString("base64url");

beforeAll(async () => {
  const [port, registryPort, authPort, usersPort, workerPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  gw = `http://127.0.0.1:${port}`;
  registryUrl = `http://127.0.0.1:${registryPort}`;
  authUrl = `http://127.0.0.1:${authPort}`;
  usersUrl = `http://127.0.0.1:${usersPort}`;
  workerUrl = `http://127.0.0.1:${workerPort}`;
  dataDir = await mkdtemp(join(tmpdir(), "gh-svc-"));
  idp = await startUpstreamIdp([`${gw}/oauth2/idp/callback`]);
  child = await runEntry("services", [], {
    PORT: String(port),
    HOST: "127.0.0.1",
    REGISTRY_PORT: String(registryPort),
    AUTH_PORT: String(authPort),
    USERS_PORT: String(usersPort),
    WORKER_PORT: String(workerPort),
    REGISTRY_URL: registryUrl,
    AUTH_URL: authUrl,
    USERS_URL: usersUrl,
    PUBLIC_URL: gw,
    DATABASE_URL: (await freshDatabase()).url,
    REDIS_URL: redisTestUrl(),
    REDIS_PREFIX: uniquePrefix(),
    SECRET_KEY: secretKey,
    DATA_DIR: dataDir,
    BOOTSTRAP_OPERATOR_CLIENT_ID: OPERATOR.id,
    BOOTSTRAP_OPERATOR_CLIENT_SECRET: OPERATOR.secret,
    BOOTSTRAP_OPERATOR_EMAIL: "root@example.com",
    BOOTSTRAP_OPERATOR_PASSWORD: "operator passphrase 42",
    LOG_LEVEL: "warn",
    WEBHOOK_ALLOW_PRIVATE: "true",
  });
  await waitReady(`${gw}/readyz`, child, 90_000);
  await waitReady(`${workerUrl}/readyz`, child, 30_000);
}, 150_000);

afterAll(async () => {
  await idp?.close();
  if (child) expect(await stopChild(child)).toBe(0);
});

const basic = `Basic ${Buffer.from(`${OPERATOR.id}:${OPERATOR.secret}`).toString("base64")}`;

describe("start:services", () => {
  it("issues a token, creates an application and reads it back across processes", async () => {
    const tokenRes = await fetch(`${gw}/oauth2/token`, {
      method: "POST",
      headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    });
    expect(tokenRes.status).toBe(200);
    const { access_token: token } = (await tokenRes.json()) as { access_token: string };
    const created = await fetch(`${gw}/v2/apps`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        "x-request-id": "e2e-request-1",
      },
      body: JSON.stringify(validApplication()),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("x-request-id")).toBe("e2e-request-1");
    const app = ((await created.json()) as { content: { id: string; password: string } }).content;
    const read = await fetch(`${gw}/v2/apps/${app.id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(read.status).toBe(200);
    const bad = await fetch(`${gw}/v2/apps`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ ...validApplication(), url: "nope" }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors: { items: { field: string }[] } }).errors.items[0]!.field).toBe("url");
  });

  it("registers a user, delivers the confirmation from the worker process, confirms by link and logs in", async () => {
    const app = await createAppWithToken(gw);
    await expectUserJourney(gw, dataDir, app);
    // The separate worker asked the users process over HTTP whether the registration committed.
    expect(await (await fetch(`${usersUrl}/metrics`)).text()).toMatch(
      /gatehouse_rpc_duration_seconds_count\{service="users",method="CheckDelivery",code="ok"\} [1-9]/,
    );
  }, 60_000);

  it("relays the users process's events to the registry process, which delivers them signed", async () => {
    const receiver = await startReceiver();
    try {
      const op = await tokenRequest(gw, OPERATOR.id, OPERATOR.secret, {
        grant_type: "client_credentials",
        scope: "admin",
      });
      const token = ((await op.json()) as { access_token: string }).access_token;
      const hook = await fetch(`${gw}/admin/v1/webhooks`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ url: receiver.url, events: ["user.created", "application.created"] }),
      });
      expect(hook.status).toBe(201);
      receiver.secrets.push(((await hook.json()) as { content: { secret: string } }).content.secret);
      const app = await createAppWithToken(gw, "hooks");
      const reg = await registerUser(gw, app, `hook.${Date.now()}@example.com`, "correct horse battery");
      expect(reg.status).toBe(201);
      await receiver.until(
        (got) =>
          ["application.created", "user.created"].every((t) =>
            got.some((g) => g.body.type === t && g.body.application === app.id),
          ),
        "both events",
      );
      for (const g of receiver.got) expect(g.verifiedWith).toBe(0);
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it("runs the device grant across processes: codes from the auth process, the /device page, polls pending", async () => {
    const app = await createAppWithToken(gw, "tv");
    const form = (path: string, body: Record<string, string>) =>
      fetch(`${gw}${path}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(body),
      });
    const d = (await (await form("/oauth2/device_authorization", { client_id: app.entrypoint })).json()) as Record<
      string,
      string
    >;
    expect(d.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    expect((await fetch(d.verification_uri_complete!)).status).toBe(200);
    const polled = await form("/oauth2/token", {
      grant_type: "urn:ietf:params:oauth:grant-type:device_code",
      client_id: app.entrypoint,
      device_code: d.device_code!,
    });
    expect(((await polled.json()) as { error: string }).error).toBe("authorization_pending");
  });

  it("social sign-in across processes: the registry checks the issuer, the users process runs the round trip", async () => {
    const op = await fetch(`${gw}/oauth2/token`, {
      method: "POST",
      headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials&scope=admin",
    });
    const token = ((await op.json()) as { access_token: string }).access_token;
    const provider = { key: "up", displayName: "Upstream", issuer: idp.issuer, clientId: idp.clientId };
    const created = await fetch(`${gw}/admin/v1/identity-providers`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ ...provider, clientSecret: idp.clientSecret }),
    });
    expect(created.status).toBe(201);
    const app = await createAppWithToken(gw, "social", (b) => (b.entrypoints[0].identityProviders = ["up"]));
    idp.accounts.set("zoe", { email: "zoe@example.com", email_verified: true, given_name: "Zoe" });
    const q = new URLSearchParams({
      response_type: "code",
      client_id: app.id,
      redirect_uri: "https://shop.example.com/callback",
      scope: "openid",
      state: "s1",
      code_challenge: pkce().challenge,
      code_challenge_method: "S256",
      entrypoint: app.entrypoint,
    });
    const page = await fetch(`${gw}/oauth2/authorize?${q}`);
    const csrf = page.headers.get("set-cookie")!.split(";")[0]!;
    const started = await fetch(`${gw}/oauth2/authorize`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrf },
      body: new URLSearchParams({ ...hiddenOf(await page.text()), idp: "up" }),
    });
    expect(started.status).toBe(303);
    const idpCookie = started.headers.get("set-cookie")!.split(";")[0]!;
    const back = await atProvider(started.headers.get("location")!, "zoe", { callback: `${gw}/oauth2/idp/callback` });
    const done = await fetch(back, { redirect: "manual", headers: { cookie: `${idpCookie}; ${csrf}` } });
    expect(done.status).toBe(303);
    const location = new URL(done.headers.get("location")!);
    expect([location.origin + location.pathname, location.searchParams.get("state")]).toEqual([
      "https://shop.example.com/callback",
      "s1",
    ]);
    // The operator's unlink reaches the users process (UsersAdminService.UnlinkUserIdentity).
    const auth = { authorization: `Bearer ${token}` };
    const found = await fetch(`${gw}/admin/v1/users?q=zoe@example.com`, { headers: auth });
    const zoe = ((await found.json()) as { content: { items: { id: string }[] } }).content.items[0]!.id;
    const unlink = () => fetch(`${gw}/admin/v1/users/${zoe}/identities/up`, { method: "DELETE", headers: auth });
    expect((await unlink()).status).toBe(204);
    expect((await unlink()).status).toBe(404);
  });

  it("serves the admin API across processes: lock, unlock, rotation and the merged audit log", async () => {
    const app = await createAppWithToken(gw, "admin");
    await expectAdminJourney(gw, dataDir, app, { sharedState: true });
  }, 60_000);

  it("ensures the console's client (registry process) and the bootstrap operator (users process): the first sign-in asks for TOTP enrolment", async () => {
    const q = new URLSearchParams({
      client_id: "gatehouse-console",
      redirect_uri: `${gw}/console/callback`,
      response_type: "code",
      scope: "openid admin",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
      state: "s1",
    });
    const page = await fetch(`${gw}/oauth2/authorize?${q}`);
    expect(page.status).toBe(200);
    const body = await page.text();
    const formToken = /name="form_token" value="([^"]+)"/.exec(body)![1]!;
    const cookie = page.headers.get("set-cookie")!.split(";")[0]!;
    const after = await fetch(`${gw}/oauth2/authorize`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: gw },
      body: new URLSearchParams({
        form_token: formToken,
        email: "root@example.com",
        password: "operator passphrase 42",
      }),
      redirect: "manual",
    });
    expect(after.status).toBe(200);
    expect(await after.text()).toMatch(/name="totp_secret" value="[A-Z2-7]{32}"/);
  });

  it("answers CheckDelivery only to internal callers", async () => {
    const url = `${usersUrl}/gatehouse.users.v1.ConfirmationDeliveryService/CheckDelivery`;
    const anon = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ deliveryId: "x" }),
    });
    expect(anon.status).toBe(401);
    const internal = new InternalTokens(new KeyRing(parseSecretKey(secretKey)));
    const client = createClient(ConfirmationDeliveryService, createGrpcTransport({ baseUrl: usersUrl }));
    const headers = { authorization: `Bearer ${await internal.token("e2e")}` };
    const enqueueTime = { seconds: BigInt(Math.floor(Date.now() / 1000)), nanos: 0 };
    expect(
      (await client.checkDelivery({ deliveryId: "f".repeat(32), enqueueTime, attempt: 1 }, { headers })).decision,
    ).toBe(DeliveryDecision.WAIT);
  });

  it("serves health, readiness and metrics on every process", async () => {
    for (const base of [gw, registryUrl, authUrl, usersUrl, workerUrl]) {
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      expect(await (await fetch(`${base}/metrics`)).text()).toContain("process_cpu");
    }
    expect((await fetch(`${workerUrl}/nope`)).status).toBe(404);
  });

  it("authenticates every RPC and refuses malformed calls with Connect codes", async () => {
    const url = `${registryUrl}/gatehouse.registry.v1.RegistryService/GetApplication`;
    const anon = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ clientId: "1" }),
    });
    expect(anon.status).toBe(401);
    expect(((await anon.json()) as { code: string }).code).toBe("unauthenticated");
    const garbage = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/proto" },
      body: new Uint8Array([0xff, 0xff, 0xff]),
    });
    expect(garbage.status).toBe(400);
    expect(((await garbage.json()) as { code: string }).code).toBe("invalid_argument");
    const badJson = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{nope",
    });
    expect(badJson.status).toBe(400);

    // gRPC over HTTP/2 with an internal service token: scopes still apply.
    const internal = new InternalTokens(new KeyRing(parseSecretKey(secretKey)));
    const client = createClient(RegistryService, createGrpcTransport({ baseUrl: registryUrl }));
    const headers = { authorization: `Bearer ${await internal.token("e2e")}` };
    await expect(client.getApplication({ clientId: "404404" }, { headers })).rejects.toMatchObject({ code: 5 });
    await expect(client.revealClientSecret({ clientId: "404404" }, { headers })).rejects.toMatchObject({ code: 7 });
  });

  it("the auth service tells a valid access token without the internal scope (permission_denied) from a bad one (unauthenticated), on every protocol", async () => {
    const tokenRes = await fetch(`${gw}/oauth2/token`, {
      method: "POST",
      headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    });
    const { access_token: operatorToken } = (await tokenRes.json()) as { access_token: string };
    const internal = await new InternalTokens(new KeyRing(parseSecretKey(secretKey))).token("e2e");
    const transports = [
      createConnectTransport({ baseUrl: authUrl, httpVersion: "1.1" }),
      createGrpcTransport({ baseUrl: authUrl }),
      createGrpcWebTransport({ baseUrl: authUrl, httpVersion: "1.1" }),
    ];
    for (const transport of transports) {
      const client = createClient(AuthService, transport);
      const call = (token?: string) =>
        client.getJwks({}, { headers: token ? { authorization: `Bearer ${token}` } : {}, timeoutMs: 5000 });
      await expect(call()).rejects.toMatchObject({ code: 16 });
      await expect(call("not.a.token")).rejects.toMatchObject({ code: 16 });
      await expect(call(operatorToken)).rejects.toMatchObject({ code: 7 });
      expect(JSON.parse((await call(internal)).jwksJson).keys.length).toBeGreaterThan(0);
    }
  });
});
