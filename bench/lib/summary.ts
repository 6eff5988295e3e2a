import type { PeerComparisons } from "../scenarios/peer.ts";
import type { ServiceRss } from "../scenarios/services-memory.ts";
import type { UserScenarios } from "../scenarios/users.ts";
import type { Comparison } from "./comparison.ts";
import { CPU_GOALS, cpuEfficiency, cpuLine } from "./cpu-efficiency.ts";

const max = (xs: (number | undefined)[]) => Math.max(...xs.filter((x): x is number => x !== undefined));
const mb = (x: number | undefined) => (x === undefined ? "-" : `${x} MB`);
const NOT_RUN = "not run (BENCH_ONLY)";

function ratioRow(c: Comparison | undefined, what: string): string {
  return c
    ? `${c.ratio.toFixed(2)}× the peer (${what}; rounds ${c.roundRatios.join(", ")}; CPU µs/req ${c.gatehouse.cpuMicrosPerRequest ?? "-"} against ${c["oidc-provider"].cpuMicrosPerRequest ?? "-"})`
    : NOT_RUN;
}

/** The issue's table (docs/performance.md), filled with this run's figures, ready to paste; scenarios left out by BENCH_ONLY say so. */
export function printSummary(
  peer: PeerComparisons | undefined,
  u: UserScenarios | undefined,
  services: ServiceRss[] | undefined,
  embedded: ServiceRss[] | undefined,
  alg: string,
) {
  const ceiling = u?.argon2Ceiling.perSecond;
  const share = (rps: number) => (ceiling ? (rps / ceiling).toFixed(2) : "-");
  const login = !u || "skipped" in u.login ? undefined : u.login.result;
  const refresh = !u || "skipped" in u.refresh ? undefined : u.refresh;
  const open = u?.openLoop;
  const patch = !u || "skipped" in u.patch ? undefined : u.patch.result;
  const afterScenarios = u?.rss.filter((s) => s.when.startsWith("round")) ?? [];
  const perRound = [...new Set(afterScenarios.map((s) => s.when.split(":")[0]))].map((r) =>
    max(afterScenarios.filter((s) => s.when.startsWith(`${r}:`)).map((s) => s.mb)),
  );
  const serviceMbs = services?.filter((s) => s.process !== "launcher").map((s) => s.mb) ?? [];
  const openLoop = open
    ? `; open loop at ${open.ratePerSecond}/s (${open.percentOfCeiling}% of the ceiling): p50 ${open.result.latencyP50Ms.toFixed(0)} ms, p99 ${open.result.latencyP99Ms.toFixed(0)} ms`
    : "";
  const eff = cpuEfficiency(peer, u);
  const cpuRow = [
    "CPU efficiency (server CPU from /proc)",
    peer || u
      ? [
          u
            ? `login ${eff.login ?? "-"} (rounds ${eff.loginRounds.join(", ") || "-"}), patch ${eff.patch ?? "-"} (rounds ${eff.patchRounds.join(", ") || "-"}) of the ceiling's ${u.argon2Ceiling.cpuMsPerVerify} ms of verifier CPU per verify`
            : undefined,
          peer?.client_credentials
            ? `client_credentials ${eff.cc ?? "-"}× the peer per server CPU-second (rounds ${peer.client_credentials.roundCpuRatios.join(", ")})`
            : undefined,
          peer?.introspection
            ? `introspection ${eff.introspect ?? "-"}× (rounds ${peer.introspection.roundCpuRatios.join(", ")})`
            : undefined,
        ]
          .filter(Boolean)
          .join("; ")
      : NOT_RUN,
    `login, patch ≥ ${CPU_GOALS.login}; client_credentials ≥ ${CPU_GOALS.cc}×; introspection ≥ ${CPU_GOALS.introspect}×`,
  ];
  const rows = [
    [
      "password login",
      login || open
        ? `${login ? `${login.requestsPerSecond.toFixed(1)}/s = ${share(login.requestsPerSecond)} of the ceiling (${ceiling!.toFixed(1)}/s); closed-loop p99 ${login.latencyP99Ms.toFixed(0)} ms` : `ceiling ${ceiling!.toFixed(1)}/s`}${openLoop}`
        : NOT_RUN,
      "≥ 0.90 of the ceiling; p99 < 100 ms at 80% load",
    ],
    [
      "patch (verifies the password)",
      patch ? `${share(patch.requestsPerSecond)} of the ceiling` : u ? "skipped" : NOT_RUN,
      "≥ 0.90",
    ],
    ["client_credentials", ratioRow(peer?.client_credentials, `both ${alg}`), "≥ 2.5×"],
    ["introspection", ratioRow(peer?.introspection, `a ${alg} JWT against the peer's opaque token`), "≥ 2×"],
    [
      "refresh rotation",
      refresh
        ? `${refresh.result.requestsPerSecond.toFixed(0)}/s (${refresh.cpuMicrosPerRequest ?? "-"} µs CPU each)`
        : NOT_RUN,
      "keep ≥ 2,000/s",
    ],
    [
      "memory, npm start on PG + Redis",
      u
        ? `${mb(u.rss[0]?.mb)} idle, ${mb(max(u.rss.filter((s) => s.when.includes("after")).map((s) => s.mb)))} peak after a scenario; per round ${perRound.map(mb).join(", ")}`
        : NOT_RUN,
      "≤ 150 MB idle, ≤ 200 MB after every scenario, flat",
    ],
    [
      "memory, embedded npm start",
      embedded ? embedded.map((e) => `${mb(e.mb)} (${e.process.replace("embedded, ", "")})`).join(", ") : NOT_RUN,
      "≤ 250 MB",
    ],
    [
      "memory per service (start:services)",
      services
        ? `${Math.min(...serviceMbs.filter((x): x is number => x !== undefined))}–${max(serviceMbs)} MB (${services.map((s) => `${s.process} ${s.mb ?? "-"}`).join(", ")})`
        : NOT_RUN,
      "≤ 100 MB each",
    ],
  ];
  rows.splice(2, 0, cpuRow);
  console.log("\n| figure | this run | goal |\n|---|---|---|");
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
  console.log(`\n${cpuLine(eff)}\n`);
}
