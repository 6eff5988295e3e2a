import { runClosedLoop } from "./lib/closed-loop.ts";
import { openConnections } from "./lib/user-scenario.ts";
import { startGatehouse } from "./lib/targets.ts";
import { createBenchApp, logIn, registerUsers } from "./lib/users.ts";
import { refreshChains } from "./scenarios/refresh.ts";

// The server's RSS around refresh-rotation runs: right after each run and
// then every second while it settles, with the server's CPU per rotation.
// PROBE_ROUNDS (3), PROBE_SECONDS (10), PROBE_CONNECTIONS (32). Extra server
// flags through NODE_OPTIONS, allocator settings through the environment
// (e.g. MALLOC_ARENA_MAX), both inherited by the server.
// usage: node <npm run bench flags> bench/probe-memory.ts (PostgreSQL and Redis as for the bench)
const ROUNDS = Number(process.env.PROBE_ROUNDS ?? 3);
const SECONDS = Number(process.env.PROBE_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.PROBE_CONNECTIONS ?? 32);
const SETTLE_READINGS = 8;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const t = await startGatehouse();
const conns = openConnections(t, CONNECTIONS);
try {
  await sleep(1000);
  console.log(`idle ${t.child.rssMb()} MB`);
  const app = await createBenchApp(t);
  const users = await registerUsers(t, app, CONNECTIONS);
  await sleep(1000);
  console.log(`${CONNECTIONS} users registered ${t.child.rssMb()} MB`);
  for (let round = 1; round <= ROUNDS; round++) {
    const sessions = await Promise.all(conns.map((c, i) => logIn(c, app, users[i]!)));
    const workers = refreshChains(app, conns, sessions);
    await runClosedLoop(workers, 3);
    const cpu0 = t.child.cpuSeconds()!;
    const result = await runClosedLoop(workers, SECONDS);
    const after = t.child.rssMb();
    const cpu = t.child.cpuSeconds()! - cpu0;
    const settle: (number | undefined)[] = [];
    for (let s = 0; s < SETTLE_READINGS; s++) {
      await sleep(1000);
      settle.push(t.child.rssMb());
    }
    console.log(
      `round ${round}: ${result.requestsPerSecond.toFixed(0)}/s, ${Math.round((cpu * 1e6) / result.requests)} µs CPU each, failed ${result.failed}; ` +
        `RSS right after ${after} MB, then per second ${settle.join(", ")} MB`,
    );
  }
} finally {
  for (const c of conns) c.close();
  await t.stop();
}
