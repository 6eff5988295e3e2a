import { execSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { failedRequests as failedAutocannon } from "./lib/comparison.ts";
import type { LoadSettings } from "./lib/load.ts";
import { printMemory } from "./lib/memory-report.ts";
import { printTable, writeJson } from "./lib/report.ts";
import { cpuEfficiency } from "./lib/cpu-efficiency.ts";
import { printSummary } from "./lib/summary.ts";
import { BENCH_ALG } from "./lib/targets.ts";
import { printUserTable } from "./lib/user-report.ts";
import { failedRequests as failedLoop, type LoopMeasured, type Skipped } from "./lib/user-scenario.ts";
import { peerComparisons } from "./scenarios/peer.ts";
import { importScenario, printImport } from "./scenarios/import.ts";
import { embeddedMemory, servicesMemory } from "./scenarios/services-memory.ts";
import { userScenarios, type UserScenarioName } from "./scenarios/users.ts";
import { printWebhooks, webhookScenario } from "./scenarios/webhooks.ts";

// npm run bench: client_credentials and introspection of Gatehouse against
// oidc-provider (both signing with BENCH_ALG, RS256 unless set) in
// interleaved rounds, then logins, refresh rotations and patches on one
// Gatehouse (PostgreSQL + Redis) in repeated rounds and logins in open loop
// at 80% of the argon2id ceiling, then the idle RSS of start:services and of
// the embedded npm start. BENCH_QUICK=1: one round of 5 s. BENCH_ONLY=a,b
// runs only the named scenarios (client_credentials, introspection, login,
// refresh, patch, login_open_loop, memory, import, webhooks). import:
// BENCH_IMPORT_USERS (100,000) users imported on the embedded default and on
// PostgreSQL. webhooks: events delivered per second and the server CPU a login
// costs more with one endpoint subscribed to everything. Exits non-zero when any request
// failed; a missed target is printed only.

const SCENARIOS = [
  "client_credentials",
  "introspection",
  "login",
  "refresh",
  "patch",
  "login_open_loop",
  "memory",
  "webhooks",
  "import",
] as const;
const chosen = new Set(
  (process.env.BENCH_ONLY ?? SCENARIOS.join(","))
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean),
);
for (const name of chosen)
  if (!(SCENARIOS as readonly string[]).includes(name))
    throw new Error(`BENCH_ONLY: unknown scenario ${name} (${SCENARIOS.join(", ")})`);
const only = (name: (typeof SCENARIOS)[number]) => chosen.has(name);
const userNames: UserScenarioName[] = ["login", "refresh", "patch", "login_open_loop"];

const quick = process.env.BENCH_QUICK === "1";
const settings: LoadSettings = {
  seconds: Number(process.env.BENCH_SECONDS ?? (quick ? 5 : 10)),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 32),
};
const rounds = Number(process.env.BENCH_ROUNDS ?? (quick ? 1 : 3));
const startedAt = Date.now();
const loadBefore = loadavg();
console.log(
  `bench: ${rounds} round(s) of ${settings.seconds} s, ${settings.connections} connections, tokens signed with ${BENCH_ALG} on both servers; ${[...chosen].join(", ")}`,
);

const peer =
  only("client_credentials") || only("introspection")
    ? await peerComparisons(settings, rounds, {
        clientCredentials: only("client_credentials"),
        introspection: only("introspection"),
      })
    : undefined;
const u = userNames.some(only) ? await userScenarios(settings, rounds, only) : undefined;

if (peer?.client_credentials) {
  const c = peer.client_credentials;
  printTable("client_credentials (JWT access token)", [c.gatehouse, c["oidc-provider"]], c.ratio, settings);
}
if (peer?.introspection) {
  const c = peer.introspection;
  printTable(
    "introspection (Gatehouse: JWT access token; oidc-provider: opaque token)",
    [c.gatehouse, c["oidc-provider"]],
    c.ratio,
    settings,
  );
}
if (u) {
  const share = (m: LoopMeasured | Skipped) =>
    "skipped" in m ? undefined : (m as { percentOfCeiling?: number }).percentOfCeiling;
  printUserTable(
    [
      { measured: u.login, percentOfCeiling: share(u.login), targetPercent: 90 },
      { measured: u.refresh },
      { measured: u.patch, percentOfCeiling: share(u.patch) },
      ...(u.openLoop
        ? [
            {
              measured: { ...u.openLoop, warmUpFailed: 0, backgroundLoad: 0 },
              percentOfCeiling: u.openLoop.percentOfCeiling,
            },
          ]
        : []),
    ],
    u.argon2Ceiling,
    settings,
  );
  const perRound = (["login", "refresh", "patch"] as const)
    .filter(only)
    .map((name) => `${name} ${u.rounds[name].map((r) => r.toFixed(name === "refresh" ? 0 : 1)).join(", ")}`);
  if (perRound.length) console.log(`rounds (req/s): ${perRound.join("; ")}`);
  if (u.openLoop)
    console.log(
      `login (open loop): sent at ${u.openLoop.ratePerSecond}/s; its req/s and latencies are the open-loop ones (latency from when each login was due)`,
    );
}
if (peer?.client_credentials)
  console.log(`client_credentials ratios per round: ${peer.client_credentials.roundRatios.join(", ")}`);
if (peer?.introspection) console.log(`introspection ratios per round: ${peer.introspection.roundRatios.join(", ")}`);
const webhooks = only("webhooks") ? await webhookScenario(rounds) : undefined;
if (webhooks) printWebhooks(webhooks);
const services = only("memory") ? await servicesMemory() : undefined;
const embedded = only("memory") ? await embeddedMemory() : undefined;
printMemory(
  [
    { process: "gatehouse (peer comparisons)", samples: peer?.rss.gatehouse ?? [] },
    { process: "oidc-provider", samples: peer?.rss["oidc-provider"] ?? [] },
    { process: "gatehouse (user scenarios)", samples: u?.rss ?? [] },
  ],
  services,
  embedded,
);
printSummary(peer, u, services, embedded, BENCH_ALG);
const importUsers = Number(process.env.BENCH_IMPORT_USERS ?? 100_000);
const imports = only("import")
  ? [await importScenario("embedded", importUsers), await importScenario("postgres", importUsers)]
  : undefined;
if (imports) printImport(imports);
const uptime = (() => {
  try {
    return execSync("uptime", { encoding: "utf8" }).trim();
  } catch {
    return `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(", ")}`;
  }
})();
console.log(
  `machine: ${cpus().length} cores; load average before ${loadBefore.map((l) => l.toFixed(2)).join(", ")}; after: ${uptime}; bench took ${Math.round((Date.now() - startedAt) / 1000)} s`,
);
await writeJson(
  fileURLToPath(
    new URL(`./results/${chosen.size === SCENARIOS.length ? "latest" : "latest-only"}.json`, import.meta.url),
  ),
  {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    settings,
    rounds,
    alg: BENCH_ALG,
    only: [...chosen],
    loadAverageBefore: loadBefore,
    loadAverageAfter: loadavg(),
    cpuEfficiency: cpuEfficiency(peer, u),
    memory: { peerComparisons: peer?.rss, userScenarios: u?.rss, startServices: services, embedded },
    scenarios: {
      client_credentials: peer?.client_credentials,
      introspection: peer?.introspection,
      argon2_ceiling: u?.argon2Ceiling,
      login: u?.login,
      login_open_loop: u?.openLoop,
      refresh_rotation: u?.refresh,
      patch: u?.patch,
      webhooks,
      import: imports,
    },
  },
);

let failed = 0;
for (const c of [peer?.client_credentials, peer?.introspection]) {
  for (const m of c ? [c.gatehouse, c["oidc-provider"]] : []) {
    const n = failedAutocannon(m);
    failed += n;
    if (n > 0)
      console.error(
        `${m.name}: ${m.result.non2xx} non-2xx, ${m.result.errors} errors, ${m.result.timeouts} timeouts`,
        m.result.statusCodes,
      );
  }
  if (c && !c.met)
    console.error(
      `gatehouse is ${c.ratio.toFixed(2)}x the peer, below the ${c.target}x target (${c.gatehouse.result.requestsPerSecond.toFixed(0)}/s)`,
    );
}
for (const m of u ? ([u.login, u.refresh, u.patch] as (LoopMeasured | Skipped)[]) : []) {
  const n = failedLoop(m);
  failed += n;
  if (n > 0 && !("skipped" in m)) {
    console.error(
      `${m.name}: ${n} failed requests (${m.warmUpFailed} in the warm-up), statuses`,
      m.result.statusCodes,
      m.result.failureSamples,
    );
  }
}
if (u?.openLoop && u.openLoop.result.failed > 0) {
  failed += u.openLoop.result.failed;
  console.error(
    `login (open loop): ${u.openLoop.result.failed} failed requests`,
    u.openLoop.result.statusCodes,
    u.openLoop.result.failureSamples,
  );
}
if (u && !("skipped" in u.login) && !u.login.met) {
  const { serverCores, machineCores } = u.login.cpu;
  console.error(
    `login: ${u.login.result.requestsPerSecond.toFixed(1)}/s is ${u.login.percentOfCeiling}% of the argon2id ceiling, below the ${u.login.targetPercent}% target` +
      ` (the server used ${serverCores ?? "?"} cores, ${u.login.cpuMicrosPerRequest ?? "?"} µs of CPU per login against ${Math.round(u.argon2Ceiling.verifyMedianMs * 1000)} µs per verify;` +
      ` the machine was busy on ${machineCores ?? "?"} of ${u.argon2Ceiling.cores})`,
  );
}
if (u?.openLoop && !u.openLoop.met)
  console.error(
    `login (open loop): p99 ${u.openLoop.result.latencyP99Ms} ms at ${u.openLoop.ratePerSecond}/s, above the 100 ms target`,
  );
for (const m of imports ?? []) {
  if (m.imported !== m.users) {
    failed += m.users - m.imported;
    console.error(`import (${m.store}): ${m.imported} of ${m.users} imported, ${m.failed} failed lines`);
  }
  if (m.store === "embedded" && m.seconds > 60)
    console.error(`import (embedded): ${m.seconds} s for ${m.users} users, above the 60 s target`);
}
process.exitCode = failed > 0 ? 1 : 0;
