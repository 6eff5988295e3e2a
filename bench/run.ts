import { execSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import type { LoadSettings } from "./lib/load.ts";
import { printMemory } from "./lib/memory-report.ts";
import { printTable, writeJson } from "./lib/report.ts";
import { printSummary } from "./lib/summary.ts";
import { BENCH_ALG } from "./lib/targets.ts";
import { printUserTable } from "./lib/user-report.ts";
import { failedRequests as failedLoop, type LoopMeasured, type Skipped } from "./lib/user-scenario.ts";
import { clientCredentialsComparison, failedRequests as failedAutocannon } from "./scenarios/client-credentials.ts";
import { embeddedMemory, servicesMemory } from "./scenarios/services-memory.ts";
import { userScenarios } from "./scenarios/users.ts";

// npm run bench: client_credentials of Gatehouse against oidc-provider (both
// signing with BENCH_ALG, RS256 unless set) in interleaved rounds, then
// logins, refresh rotations and patches on one Gatehouse (PostgreSQL + Redis)
// in repeated rounds, then the idle RSS of start:services and of the embedded
// npm start. BENCH_QUICK=1: one round of 5 s. Exits non-zero when any request
// failed; a missed target is printed only.

const quick = process.env.BENCH_QUICK === "1";
const settings: LoadSettings = {
  seconds: Number(process.env.BENCH_SECONDS ?? (quick ? 5 : 10)),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 32),
};
const rounds = Number(process.env.BENCH_ROUNDS ?? (quick ? 1 : 3));
const startedAt = Date.now();
const loadBefore = loadavg();
console.log(`bench: ${rounds} round(s) of ${settings.seconds} s, ${settings.connections} connections, tokens signed with ${BENCH_ALG} on both servers`);

const cc = await clientCredentialsComparison(settings, rounds);
const u = await userScenarios(settings, rounds);

printTable("client_credentials (JWT access token)", [cc.gatehouse, cc["oidc-provider"]], cc.ratio, settings);
printUserTable(
  [
    { measured: u.login, percentOfCeiling: u.login.percentOfCeiling, targetPercent: u.login.targetPercent },
    { measured: u.refresh },
    { measured: u.patch, percentOfCeiling: "skipped" in u.patch ? undefined : u.patch.percentOfCeiling },
  ],
  u.argon2Ceiling,
  settings,
);
console.log(`rounds (req/s): client_credentials ratios ${cc.roundRatios.join(", ")}; login ${u.rounds.login.map((r) => r.toFixed(1)).join(", ")};` +
  ` refresh ${u.rounds.refresh.map((r) => r.toFixed(0)).join(", ")}; patch ${u.rounds.patch.map((r) => r.toFixed(1)).join(", ")}`);
const services = await servicesMemory();
const embedded = await embeddedMemory();
printMemory(
  [
    { process: "gatehouse (client_credentials)", samples: cc.rss.gatehouse },
    { process: "oidc-provider", samples: cc.rss["oidc-provider"] },
    { process: "gatehouse (user scenarios)", samples: u.rss },
  ],
  services,
  embedded,
);
printSummary(cc, u, services, embedded, BENCH_ALG);
const uptime = (() => {
  try {
    return execSync("uptime", { encoding: "utf8" }).trim();
  } catch {
    return `load average ${loadavg().map((l) => l.toFixed(2)).join(", ")}`;
  }
})();
console.log(`machine: ${cpus().length} cores; load average before ${loadBefore.map((l) => l.toFixed(2)).join(", ")}; after: ${uptime}; bench took ${Math.round((Date.now() - startedAt) / 1000)} s`);
await writeJson(fileURLToPath(new URL("./results/latest.json", import.meta.url)), {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  settings,
  rounds,
  alg: BENCH_ALG,
  loadAverageBefore: loadBefore,
  loadAverageAfter: loadavg(),
  memory: { clientCredentials: cc.rss, userScenarios: u.rss, startServices: services, embedded },
  scenarios: {
    client_credentials: cc,
    argon2_ceiling: u.argon2Ceiling,
    login: u.login,
    refresh_rotation: u.refresh,
    patch: u.patch,
  },
});

let failed = 0;
for (const m of [cc.gatehouse, cc["oidc-provider"]]) {
  const n = failedAutocannon(m);
  failed += n;
  if (n > 0) console.error(`${m.name}: ${m.result.non2xx} non-2xx, ${m.result.errors} errors, ${m.result.timeouts} timeouts`, m.result.statusCodes);
}
for (const m of [u.login, u.refresh, u.patch] as (LoopMeasured | Skipped)[]) {
  const n = failedLoop(m);
  failed += n;
  if (n > 0 && !("skipped" in m)) {
    console.error(`${m.name}: ${n} failed requests (${m.warmUpFailed} in the warm-up), statuses`, m.result.statusCodes, m.result.failureSamples);
  }
}
if (!cc.met) console.error(`client_credentials: gatehouse is ${cc.ratio.toFixed(2)}x the peer, below the ${cc.target}x target`);
if (!u.login.met) {
  const { serverCores, machineCores } = u.login.cpu;
  console.error(
    `login: ${u.login.result.requestsPerSecond.toFixed(1)}/s is ${u.login.percentOfCeiling}% of the argon2id ceiling, below the ${u.login.targetPercent}% target` +
      ` (the server used ${serverCores ?? "?"} cores, ${u.login.cpuMicrosPerRequest ?? "?"} µs of CPU per login against ${Math.round(u.argon2Ceiling.verifyMedianMs * 1000)} µs per verify;` +
      ` the machine was busy on ${machineCores ?? "?"} of ${u.argon2Ceiling.cores};` +
      ` it is ${u.login.percentOfAllCores}% of the ${u.argon2Ceiling.allCoresPerSecond}/s that ${u.argon2Ceiling.cores} verifies at once reached in the bench process)`,
  );
}
process.exitCode = failed > 0 ? 1 : 0;
