import { Redis } from "ioredis";
import pg from "pg";
import { dropTestDatabases } from "@gatehouse/testing";
import { startTestStack } from "../apps/standalone/test/stack-helpers.ts";
import type { HttpRequest } from "./lib/http.ts";
import {
  applicationBody,
  loginRequest,
  patchNameRequest,
  refreshRequest,
  type BenchApp,
  type BenchUser,
  type UserSession,
} from "./lib/users.ts";

// In process, on PostgreSQL + Redis (`app.inject`, the whole stack): SQL
// queries and Redis round trips per password login, per patch with the
// password and per refresh rotation, then the process's CPU per login over
// PROBE_ROUNDS rounds of PROBE_N logins after PROBE_WARMUP (4 in flight), and
// per patch over PROBE_ROUNDS rounds of PROBE_PATCHES (4 in flight; 0: none).
// A round trip is one command, or one pipeline (its commands sent in one write).
// usage: NODE_ENV=test TEST_PASSWORD_HASH=cheap node --conditions=@gatehouse/source
//   --experimental-transform-types bench/probe-login.ts
const N = Number(process.env.PROBE_N ?? 300);
const WARMUP = Number(process.env.PROBE_WARMUP ?? 400);
const ROUNDS = Number(process.env.PROBE_ROUNDS ?? 3);
const USERS = Number(process.env.PROBE_USERS ?? 200);
const PATCHES = Number(process.env.PROBE_PATCHES ?? 200);

const counts = { sql: 0, redisCommands: 0, redisRoundTrips: 0 };
// PROBE_TRACE=1: each measured request's Redis commands by name ("|" joins a pipeline's).
const trace: string[] | undefined = process.env.PROBE_TRACE ? [] : undefined;
const pipelines = new WeakSet<object>();
const sendCommand = Redis.prototype.sendCommand;
Redis.prototype.sendCommand = function (this: Redis, ...args: Parameters<Redis["sendCommand"]>) {
  const stream = args[1] as object | undefined;
  counts.redisCommands++;
  const name = (args[0] as { name?: string } | undefined)?.name ?? "?";
  if (!stream || !pipelines.has(stream)) {
    counts.redisRoundTrips++;
    trace?.push(name);
  } else if (trace) trace[trace.length - 1] += `|${name}`;
  if (stream) pipelines.add(stream);
  return sendCommand.apply(this, args);
};
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  counts.sql++;
  const text = typeof args[0] === "string" ? args[0] : (args[0] as { text?: string } | undefined)?.text;
  trace?.push(`sql ${String(text).replace(/\s+/g, " ").slice(0, 70)}`);
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

const stack = await startTestStack();
const send = async <T = unknown>(req: HttpRequest, status = 200): Promise<T> => {
  const res = await stack.app.inject({
    method: req.method,
    url: req.path,
    headers: req.headers,
    ...(req.body === undefined ? {} : { payload: req.body }),
  });
  if (res.statusCode !== status)
    throw new Error(`${req.method} ${req.path}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return res.json<T>();
};
const json = (token: string) => ({
  authorization: `Bearer ${token}`,
  "content-type": "application/json",
  accept: "application/json",
});

try {
  const operator = await stack.operatorToken("apps:write");
  const { content: created } = await send<{ content: { id: string; password: string; entrypoints: { id: string }[] } }>(
    { method: "POST", path: "/v2/apps", headers: json(operator), body: JSON.stringify(applicationBody()) },
    201,
  );
  const form = {
    authorization: stack.basic(created.id, created.password),
    "content-type": "application/x-www-form-urlencoded",
  };
  const tokenRes = await stack.app.inject({
    method: "POST",
    url: "/oauth2/token",
    headers: form,
    payload: "grant_type=client_credentials&scope=users%3Aaccess",
  });
  const app: BenchApp = {
    clientId: created.id,
    clientSecret: created.password,
    entrypointId: created.entrypoints[0]!.id,
    appToken: tokenRes.json<{ access_token: string }>().access_token,
  };
  const users: BenchUser[] = [];
  for (let i = 0; i < USERS; i++) {
    const user = { email: `probe.${i}@example.com`, password: "probe password 0123" };
    const register = loginRequest(app, user);
    const body = JSON.parse(register.body!) as { verb: string; object: Record<string, unknown> };
    body.verb = "create";
    body.object.datas = { name: { objectType: "data", value: "Probe" } };
    body.object.assertions = {};
    await send({ ...register, path: "/activityid/v1/user/register", body: JSON.stringify(body) }, 201);
    users.push(user);
  }
  let next = 0;
  const logIn = async (user = users[next++ % users.length]!): Promise<UserSession> => {
    const { content } = await send<{
      content: { user: { id: string }; session_info: { access_token: string; refresh_token: string } };
    }>(loginRequest(app, user));
    return {
      userId: String(content.user.id),
      accessToken: content.session_info.access_token,
      refreshToken: content.session_info.refresh_token,
    };
  };
  const logins = (n: number) =>
    Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let k = 0; k < n / 4; k++) await logIn();
      }),
    );
  const perRequest = async (label: string, n: number, one: () => Promise<unknown>) => {
    const before = { ...counts };
    for (let i = 0; i < n; i++) {
      trace?.splice(0);
      await one();
      if (trace && i === n - 1) console.log(`${label} (last):\n  ${trace.join("\n  ")}`);
    }
    const per = (k: keyof typeof counts) => ((counts[k] - before[k]) / n).toFixed(2);
    console.log(
      `${label}: ${per("sql")} SQL queries, ${per("redisRoundTrips")} Redis round trips (${per("redisCommands")} commands)`,
    );
  };

  await logins(WARMUP);
  await perRequest("login", 20, logIn);
  const session = await logIn();
  const user = users[(next - 1) % users.length]!;
  await perRequest("patch", 20, () => send(patchNameRequest(app, user, session, `Probe ${next++}`)));
  let refreshToken = session.refreshToken;
  await perRequest("rotation", 20, async () => {
    refreshToken = (await send<{ refresh_token: string }>(refreshRequest(app, refreshToken))).refresh_token;
  });
  const cpuRounds = async (what: string, n: number, run: (n: number) => Promise<unknown>) => {
    for (let r = 1; r <= ROUNDS; r++) {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await run(n);
      const cpu = process.cpuUsage(cpu0);
      const wall = performance.now() - t0;
      console.log(
        `round ${r}: ${n} ${what}, ${((cpu.user + cpu.system) / n / 1000).toFixed(2)} ms of CPU each (${(n / (wall / 1000)).toFixed(0)}/s)`,
      );
    }
  };
  await cpuRounds("logins", N, logins);
  // Patches: 4 in flight, each lane patching its own user (one user's patches queue on its row lock).
  const lanes = await Promise.all(users.slice(0, 4).map(async (u) => ({ user: u, session: await logIn(u) })));
  const patches = (n: number) =>
    Promise.all(
      lanes.map(async ({ user: u, session: s }) => {
        for (let k = 0; k < n / 4; k++) await send(patchNameRequest(app, u, s, `Probe ${next++}`));
      }),
    );
  if (PATCHES > 0) {
    await patches(Math.min(PATCHES, WARMUP));
    await cpuRounds("patches", PATCHES, patches);
  }
} finally {
  await stack.close();
  await dropTestDatabases();
}
