import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import { OPERATOR, validApplication } from "./stack-helpers.ts";

// The users flow of the contract over real HTTP against a running gateway
// (start:services): an application with an entry point, its APP_TOKEN,
// registration, login, the confirmation link from the outbox, refresh.

export const basicAuth = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;

export async function tokenRequest(
  gw: string,
  id: string,
  secret: string,
  form: Record<string, string>,
): Promise<Response> {
  return fetch(`${gw}/oauth2/token`, {
    method: "POST",
    headers: { authorization: basicAuth(id, secret), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  });
}

export interface TestApp {
  id: string;
  password: string;
  entrypoint: string;
  token: string;
}

/** Creates the standard application (email must be confirmed) and gets its APP_TOKEN. */
export async function createAppWithToken(
  gw: string,
  key = "shop",
  edit?: (body: Record<string, any>) => void,
): Promise<TestApp> {
  const op = await tokenRequest(gw, OPERATOR.id, OPERATOR.secret, {
    grant_type: "client_credentials",
    scope: "apps:write",
  });
  if (op.status !== 200) throw new Error(`operator token: ${op.status} ${await op.text()}`);
  const opToken = ((await op.json()) as { access_token: string }).access_token;
  const created = await fetch(`${gw}/v2/apps`, {
    method: "POST",
    headers: { authorization: `Bearer ${opToken}`, "content-type": "application/json" },
    body: JSON.stringify(((b) => (edit?.(b), b))({ ...validApplication(), key })),
  });
  if (created.status !== 201) throw new Error(`create app: ${created.status} ${await created.text()}`);
  const app = ((await created.json()) as { content: { id: string; password: string; entrypoints: { id: string }[] } })
    .content;
  const t = await tokenRequest(gw, app.id, app.password, { grant_type: "client_credentials" });
  if (t.status !== 200) throw new Error(`app token: ${t.status} ${await t.text()}`);
  return {
    id: app.id,
    password: app.password,
    entrypoint: app.entrypoints[0]!.id,
    token: ((await t.json()) as { access_token: string }).access_token,
  };
}

function envelope(app: TestApp, verb: "create" | "access", email: string, password: string) {
  const object: Record<string, unknown> = {
    objectType: "user",
    password,
    ids: { email: { objectType: "user_id", value: email } },
  };
  if (verb === "create")
    Object.assign(object, { datas: { name: { objectType: "data", value: "Ana" } }, assertions: {} });
  return { actor: { id: app.id, objectType: "application" }, verb, object, source: { id: "pc", objectType: "device" } };
}

async function post(gw: string, app: TestApp, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${gw}${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${app.token}`,
      "content-type": "application/json",
      accept: "application/json",
      from: app.entrypoint,
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

export const registerUser = (gw: string, app: TestApp, email: string, password: string) =>
  post(gw, app, "/activityid/v1/user/register", envelope(app, "create", email, password));

export const loginUser = (gw: string, app: TestApp, email: string, password: string) =>
  post(gw, app, "/activityid/v1/user/access", envelope(app, "access", email, password));

/** The link token of the confirmation email the worker wrote to DATA_DIR/outbox for `email`. */
export async function outboxLinkToken(dataDir: string, email: string, timeoutMs = 20_000): Promise<string> {
  const dir = join(dataDir, "outbox");
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    for (const f of await readdir(dir).catch(() => [] as string[])) {
      if (!f.endsWith(".json")) continue;
      const msg = JSON.parse(await readFile(join(dir, f), "utf8")) as { to: string; text: string };
      const m = msg.to === email ? /\/activityid\/v1\/user\/confirm\?token=([^\s"]+)/.exec(msg.text) : null;
      if (m) return m[1]!;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no confirmation message for ${email} in ${dir}`);
}

/**
 * Register (201, email pending), login refused until confirmed (412), the
 * worker's email in the outbox, confirm by the link (302), login (200) and a
 * refresh that rotates (the spent token is then refused).
 */
export async function expectUserJourney(gw: string, dataDir: string, app: TestApp): Promise<void> {
  const email = `ana.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = "correct horse battery";
  const reg = await registerUser(gw, app, email, password);
  expect(reg.status, JSON.stringify(reg.body)).toBe(201);
  const user = reg.body.content.user;
  expect(user.ids.email).toMatchObject({ value: email, confirmed: false });
  expect(reg.body.content).not.toHaveProperty("session_info");

  const early = await loginUser(gw, app, email, password);
  expect(early.status).toBe(412);
  expect(early.body.errors.code).toBe("user_unconfirmed");

  const token = await outboxLinkToken(dataDir, email);
  const confirmed = await fetch(`${gw}/activityid/v1/user/confirm?token=${token}`, { redirect: "manual" });
  expect(confirmed.status).toBe(302);
  expect(confirmed.headers.get("location")).toBe(`${gw}/activityid/v1/user/confirmed`);

  const ok = await loginUser(gw, app, email, password);
  expect(ok.status).toBe(200);
  const info = ok.body.content.session_info;
  expect(ok.body.content.user.id).toBe(user.id);
  expect(info.login_status).toEqual({ uid: user.id, connect_state: "connected" });

  const rotated = await tokenRequest(gw, app.id, app.password, {
    grant_type: "refresh_token",
    refresh_token: info.refresh_token,
  });
  expect(rotated.status).toBe(200);
  const next = (await rotated.json()) as { refresh_token: string; access_token: string };
  expect(next.refresh_token).not.toBe(info.refresh_token);
  const reused = await tokenRequest(gw, app.id, app.password, {
    grant_type: "refresh_token",
    refresh_token: info.refresh_token,
  });
  expect(reused.status).toBe(400);
  expect(((await reused.json()) as { error: string }).error).toBe("invalid_grant");
}
