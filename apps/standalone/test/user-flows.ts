import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { TestStack } from "./stack-helpers.ts";
import { validApplication } from "./stack-helpers.ts";

// The users flow through an in-process stack (app.inject): an application
// with its entry point and APP_TOKEN, registration, the confirmation link
// from the outbox, login.

export const PASSWORD = "correct horse battery";
export const SOURCE = { id: "pc", objectType: "device" };

export interface FlowApp {
  id: string;
  password: string;
  entrypoint: string;
  token: string;
}

/** The standard application (email must be confirmed), optionally edited, with its APP_TOKEN. */
export async function createApp(
  s: TestStack,
  key = "shop",
  edit?: (body: Record<string, any>) => void,
): Promise<FlowApp> {
  const op = await s.operatorToken();
  const body = { ...validApplication(), key };
  edit?.(body);
  const res = await s.app.inject({
    method: "POST",
    url: "/v2/apps",
    headers: { authorization: `Bearer ${op}`, "content-type": "application/json" },
    payload: JSON.stringify(body),
  });
  if (res.statusCode !== 201) throw new Error(`create app: ${res.statusCode} ${res.body}`);
  const app = res.json().content;
  const t = await s.app.inject({
    method: "POST",
    url: "/oauth2/token",
    headers: { authorization: s.basic(app.id, app.password), "content-type": "application/x-www-form-urlencoded" },
    payload: "grant_type=client_credentials",
  });
  return { id: app.id, password: app.password, entrypoint: app.entrypoints[0].id, token: t.json().access_token };
}

/** A JSON request with the spec's common headers; `headers` may override or (with undefined) drop them. */
export function send(
  s: TestStack,
  method: "POST" | "PATCH",
  url: string,
  token: string,
  from: string,
  body: unknown,
  headers: Record<string, string | undefined> = {},
) {
  const all: Record<string, string | undefined> = {
    authorization: `Bearer ${token}`,
    "content-type": "application/json",
    accept: "application/json",
    from,
    ...headers,
  };
  const defined = Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as Record<string, string>;
  return s.app.inject({ method, url, headers: defined, payload: JSON.stringify(body) });
}

export const registerEnvelope = (app: FlowApp, email: string, password = PASSWORD) => ({
  actor: { id: app.id, objectType: "application" },
  verb: "create",
  object: {
    objectType: "user",
    password,
    ids: { email: { objectType: "user_id", value: email } },
    datas: { name: { objectType: "data", value: "Ana" } },
    assertions: {},
  },
  source: SOURCE,
});

export const loginEnvelope = (app: FlowApp, email: string, password = PASSWORD) => ({
  actor: { id: app.id, objectType: "application" },
  verb: "access",
  object: { objectType: "user", password, ids: { email: { objectType: "user_id", value: email } } },
  source: SOURCE,
});

/** Every link token the outbox holds for `to`, oldest first (waits for at least `atLeast`). */
export async function outboxLinks(s: TestStack, to: string, atLeast = 1): Promise<string[]> {
  const dir = join(s.config.dataDir, "outbox");
  for (let i = 0; i < 100; i++) {
    const found: { at: number; token: string }[] = [];
    for (const f of await readdir(dir).catch(() => [] as string[])) {
      if (!f.endsWith(".json")) continue;
      const msg = JSON.parse(await readFile(join(dir, f), "utf8")) as { to: string; text: string; createdAt?: string };
      const m = msg.to === to ? /\/activityid\/v1\/user\/confirm\?token=([^\s"]+)/.exec(msg.text) : null;
      if (m) found.push({ at: Date.parse(msg.createdAt ?? "") || 0, token: m[1]! });
    }
    if (found.length >= atLeast) return found.sort((a, b) => a.at - b.at).map((f) => f.token);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no confirmation message for ${to}`);
}

/** The first confirmation code the outbox holds for `to` (email or SMS). */
export async function outboxCode(s: TestStack, to: string): Promise<string> {
  const dir = join(s.config.dataDir, "outbox");
  for (let i = 0; i < 100; i++) {
    for (const f of await readdir(dir).catch(() => [] as string[])) {
      if (!f.endsWith(".json")) continue;
      const msg = JSON.parse(await readFile(join(dir, f), "utf8")) as { to: string; code: string };
      if (msg.to === to && msg.code) return msg.code;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no confirmation code for ${to}`);
}

export interface LoggedUser {
  email: string;
  id: number;
  pulseId: string;
  accessToken: string;
}

/** Registers, confirms by the emailed link and logs in: a user with a session. */
export async function loggedUser(
  s: TestStack,
  app: FlowApp,
  email = `u${Date.now()}${Math.random().toString(36).slice(2, 8)}@example.com`,
): Promise<LoggedUser> {
  const reg = await send(
    s,
    "POST",
    "/activityid/v1/user/register",
    app.token,
    app.entrypoint,
    registerEnvelope(app, email),
  );
  if (reg.statusCode !== 201) throw new Error(`register: ${reg.statusCode} ${reg.body}`);
  const [link] = await outboxLinks(s, email);
  const confirmed = await s.app.inject({ method: "GET", url: `/activityid/v1/user/confirm?token=${link}` });
  if (confirmed.statusCode !== 302) throw new Error(`confirm: ${confirmed.statusCode}`);
  const login = await send(
    s,
    "POST",
    "/activityid/v1/user/access",
    app.token,
    app.entrypoint,
    loginEnvelope(app, email),
  );
  if (login.statusCode !== 200) throw new Error(`login: ${login.statusCode} ${login.body}`);
  const content = login.json().content;
  return { email, id: content.user.id, pulseId: content.user.pulse_id, accessToken: content.session_info.access_token };
}
