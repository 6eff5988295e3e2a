import { createRequire } from "node:module";
import { join } from "node:path";
import type { Redis as RedisClient } from "ioredis";
import type pgTypes from "pg";
import { applicationBody } from "./lib/users.ts";

// In process, on PostgreSQL + Redis (`app.inject`, the whole stack, no
// sockets to the client): SQL queries and Redis round trips per
// client_credentials token and per introspection, then the process's CPU per
// request over PROBE_ROUNDS rounds of PROBE_N requests (4 in flight).
// PROBE_ROOT=/other/worktree measures that tree's stack (an A/B: run it on
// both, alternately). usage: node --conditions=@gatehouse/source
//   --experimental-transform-types bench/probe-token.ts
const root = process.env.PROBE_ROOT ?? join(import.meta.dirname, "..");
const N = Number(process.env.PROBE_N ?? 2000);
const ROUNDS = Number(process.env.PROBE_ROUNDS ?? 3);

// The measured tree's own copies of the drivers (each worktree has its node_modules).
const fromRoot = createRequire(join(root, "package.json"));
const { Redis } = fromRoot("ioredis") as { Redis: typeof RedisClient };
const pg = fromRoot("pg") as typeof pgTypes;

const counts = { sql: 0, redisRoundTrips: 0 };
const pipelines = new WeakSet<object>();
const sendCommand = Redis.prototype.sendCommand;
Redis.prototype.sendCommand = function (this: RedisClient, ...args: Parameters<RedisClient["sendCommand"]>) {
  const stream = args[1] as object | undefined;
  if (!stream || !pipelines.has(stream)) counts.redisRoundTrips++;
  if (stream) pipelines.add(stream);
  return sendCommand.apply(this, args);
};
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pgTypes.Client, ...args: unknown[]) {
  counts.sql++;
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

type Stack = Awaited<ReturnType<typeof import("../apps/standalone/test/stack-helpers.ts").startTestStack>>;
const { startTestStack } = (await import(join(root, "apps/standalone/test/stack-helpers.ts"))) as {
  startTestStack: () => Promise<Stack>;
};
const { dropTestDatabases } = (await import(join(root, "libs/testing/src/index.ts"))) as {
  dropTestDatabases: () => Promise<void>;
};
const stack = await startTestStack();
try {
  const operator = await stack.operatorToken("apps:write");
  const created = (
    await stack.app.inject({
      method: "POST",
      url: "/v2/apps",
      headers: { authorization: `Bearer ${operator}`, "content-type": "application/json" },
      payload: JSON.stringify(applicationBody()),
    })
  ).json<{ content: { id: string; password: string } }>().content;
  if (!created?.id) throw new Error("the probe's application was not created");
  const headers = {
    authorization: stack.basic(created.id, created.password),
    "content-type": "application/x-www-form-urlencoded",
  };
  const post = async (url: string, payload: string) => {
    const res = await stack.app.inject({ method: "POST", url, headers, payload });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    return res.json<Record<string, unknown>>();
  };
  const cc = () => post("/oauth2/token", "grant_type=client_credentials&scope=users%3Aaccess");
  const token = String((await cc()).access_token);
  const introspect = async () => {
    if ((await post("/oauth2/introspect", `token=${token}`)).active !== true) throw new Error("inactive");
  };
  const run = (n: number, one: () => Promise<unknown>) =>
    Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let k = 0; k < n / 4; k++) await one();
      }),
    );
  for (const [label, one] of [
    ["client_credentials", cc],
    ["introspection", introspect],
  ] as const) {
    await run(N, one);
    const before = { ...counts };
    await run(100, one);
    console.log(
      `${label}: ${(counts.sql - before.sql) / 100} SQL queries, ${(counts.redisRoundTrips - before.redisRoundTrips) / 100} Redis round trips`,
    );
    for (let r = 1; r <= ROUNDS; r++) {
      const cpu0 = process.cpuUsage();
      await run(N, one);
      const cpu = process.cpuUsage(cpu0);
      console.log(`${label} round ${r}: ${((cpu.user + cpu.system) / N).toFixed(0)} µs of CPU each`);
    }
  }
} finally {
  await stack.close();
  await dropTestDatabases();
}
