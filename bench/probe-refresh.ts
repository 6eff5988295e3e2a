import { Redis } from "ioredis";
import { HttpConnection, loopbackAddress } from "./lib/http.ts";
import { BENCH_REDIS_URL } from "./lib/stores.ts";
import { startGatehouse } from "./lib/targets.ts";
import { createBenchApp, logIn, refreshRequest, registerUsers } from "./lib/users.ts";

// Redis commands per refresh rotation, counted with MONITOR on the run's
// prefix (commands a Lua script runs show too, in capitals), and the
// server's CPU per rotation over PROBE_N rotations on 4 connections.
// usage: node <npm run bench flags> bench/probe-refresh.ts (PostgreSQL and Redis as for the bench)
const N = Number(process.env.PROBE_N ?? 2000);
const t = await startGatehouse();
try {
  const app = await createBenchApp(t);
  const users = await registerUsers(t, app, 4);
  const conns = users.map((_, i) => new HttpConnection(t.baseUrl, loopbackAddress(i)));
  const tokens = (await Promise.all(conns.map((c, i) => logIn(c, app, users[i]!)))).map((s) => s.refreshToken);
  const rotate = async (i: number) => {
    const res = await conns[i]!.send(refreshRequest(app, tokens[i]!));
    if (res.status !== 200) throw new Error(res.body);
    tokens[i] = (JSON.parse(res.body) as { refresh_token: string }).refresh_token;
  };
  const run = (n: number) =>
    Promise.all(
      conns.map(async (_, i) => {
        for (let k = 0; k < n / conns.length; k++) await rotate(i);
      }),
    );
  await run(400);
  // monitor() opens a second connection: both must close, or the probe never exits.
  const redis = new Redis(BENCH_REDIS_URL);
  const monitor = await redis.monitor();
  const counted = new Map<string, number>();
  monitor.on("monitor", (_time: string, args: string[]) => {
    if (args.some((a) => a.includes("ghbench:"))) counted.set(args[0]!, (counted.get(args[0]!) ?? 0) + 1);
  });
  await new Promise((r) => setTimeout(r, 200));
  await run(100);
  await new Promise((r) => setTimeout(r, 300));
  monitor.disconnect();
  redis.disconnect();
  console.log("Redis commands per rotation:", Object.fromEntries([...counted].map(([k, v]) => [k, v / 100])));
  const cpu0 = t.child.cpuSeconds()!;
  const t0 = performance.now();
  await run(N);
  const cpu = t.child.cpuSeconds()! - cpu0;
  console.log(
    `${N} rotations: ${((cpu * 1e6) / N).toFixed(0)} µs of server CPU each, ${(N / ((performance.now() - t0) / 1000)).toFixed(0)}/s on 4 connections`,
  );
  for (const c of conns) c.close();
} finally {
  await t.stop();
}
