import { basicAuth, loginUser, outboxLinkToken, registerUser, tokenRequest, type TestApp } from "./http-users.ts";

// A steady load through the balancer while replicas stop and start: logins,
// refreshes, introspections and user reads (and, from one loop, registrations
// whose confirmation the workers deliver). Every answer but the expected one
// is a failure, kept with what it said.

export interface LoadUser {
  id: string;
  email: string;
  password: string;
  refreshToken: string;
  accessToken: string;
}

export interface Tally {
  sent: number;
  byOp: Record<string, number>;
  failures: { op: string; status: number | string; body: string }[];
  registered: string[];
}

const PASSWORD = "correct horse battery";
export const email = (tag: string) =>
  `${tag}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@example.com`;

/** A confirmed user, logged in once. */
export async function loadUser(gw: string, dataDir: string, app: TestApp): Promise<LoadUser> {
  const address = email("load");
  const reg = await registerUser(gw, app, address, PASSWORD);
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${JSON.stringify(reg.body)}`);
  const token = await outboxLinkToken(dataDir, address);
  const confirmed = await fetch(`${gw}/activityid/v1/user/confirm?token=${token}`, { redirect: "manual" });
  if (confirmed.status !== 302) throw new Error(`confirm: ${confirmed.status}`);
  const login = await loginUser(gw, app, address, PASSWORD);
  const info = login.body.content.session_info;
  return {
    id: String(login.body.content.user.id),
    email: address,
    password: PASSWORD,
    refreshToken: info.refresh_token,
    accessToken: info.access_token,
  };
}

/** Runs `loops` loops until `stop()`; each iteration logs in, refreshes, introspects and reads the user. */
export async function steadyLoad(
  gw: string,
  app: TestApp,
  users: LoadUser[],
  operatorToken: string,
  stop: () => boolean,
): Promise<Tally> {
  const tally: Tally = { sent: 0, byOp: {}, failures: [], registered: [] };
  const check = async (op: string, req: () => Promise<Response>, ok: (status: number, body: any) => boolean) => {
    tally.sent++;
    tally.byOp[op] = (tally.byOp[op] ?? 0) + 1;
    try {
      const res = await req();
      const text = await res.text();
      const body = text.startsWith("{") ? JSON.parse(text) : text;
      if (!ok(res.status, body)) tally.failures.push({ op, status: res.status, body: text.slice(0, 300) });
      return body;
    } catch (err) {
      tally.failures.push({
        op,
        status: (err as { cause?: { code?: string } }).cause?.code ?? "error",
        body: String(err),
      });
      return undefined;
    }
  };
  const loop = async (u: LoadUser, n: number) => {
    for (let i = 0; !stop(); i++) {
      await check(
        "login",
        () => post(gw, app, "/activityid/v1/user/access", u),
        (s) => s === 200,
      );
      const refreshed = await check(
        "refresh",
        () => tokenRequest(gw, app.id, app.password, { grant_type: "refresh_token", refresh_token: u.refreshToken }),
        (s) => s === 200,
      );
      if (refreshed?.refresh_token)
        Object.assign(u, { refreshToken: refreshed.refresh_token, accessToken: refreshed.access_token });
      await check(
        "introspect",
        () =>
          fetch(`${gw}/oauth2/introspect`, {
            method: "POST",
            headers: {
              authorization: basicAuth(app.id, app.password),
              "content-type": "application/x-www-form-urlencoded",
            },
            body: new URLSearchParams({ token: u.accessToken }).toString(),
          }),
        (s, b) => s === 200 && b.active === true,
      );
      await check(
        "read user",
        () => fetch(`${gw}/admin/v1/users/${u.id}`, { headers: { authorization: `Bearer ${operatorToken}` } }),
        (s) => s === 200,
      );
      if (n === 0 && i % 4 === 0) {
        const address = email("reg");
        const reg = await check(
          "register",
          () => registerRaw(gw, app, address),
          (s) => s === 201,
        );
        if (reg) tally.registered.push(address);
      }
      await new Promise((r) => setTimeout(r, 40));
    }
  };
  await Promise.all(users.map(loop));
  return tally;
}

const headers = (app: TestApp) => ({
  authorization: `Bearer ${app.token}`,
  "content-type": "application/json",
  accept: "application/json",
  from: app.entrypoint,
});

function post(gw: string, app: TestApp, path: string, u: LoadUser) {
  const object = {
    objectType: "user",
    password: u.password,
    ids: { email: { objectType: "user_id", value: u.email } },
  };
  const body = {
    actor: { id: app.id, objectType: "application" },
    verb: "access",
    object,
    source: { id: "pc", objectType: "device" },
  };
  return fetch(`${gw}${path}`, { method: "POST", headers: headers(app), body: JSON.stringify(body) });
}

function registerRaw(gw: string, app: TestApp, address: string) {
  const object = {
    objectType: "user",
    password: PASSWORD,
    ids: { email: { objectType: "user_id", value: address } },
    datas: { name: { objectType: "data", value: "Ana" } },
    assertions: {},
  };
  const body = {
    actor: { id: app.id, objectType: "application" },
    verb: "create",
    object,
    source: { id: "pc", objectType: "device" },
  };
  return fetch(`${gw}/activityid/v1/user/register`, {
    method: "POST",
    headers: headers(app),
    body: JSON.stringify(body),
  });
}

/** Every registration's confirmation reached the outbox (a worker that stopped finished or left its job to the other). */
export async function undelivered(dataDir: string, addresses: string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const a of addresses) await outboxLinkToken(dataDir, a, 20_000).catch(() => missing.push(a));
  return missing;
}
