import type { ClientCredentialsComparison } from "../scenarios/client-credentials.ts";
import type { ServiceRss } from "../scenarios/services-memory.ts";
import type { UserScenarios } from "../scenarios/users.ts";

const max = (xs: (number | undefined)[]) => Math.max(...xs.filter((x): x is number => x !== undefined));
const mb = (x: number | undefined) => (x === undefined ? "-" : `${x} MB`);

/** The issue's table (docs/performance.md), filled with this run's figures, ready to paste. */
export function printSummary(cc: ClientCredentialsComparison, u: UserScenarios, services: ServiceRss[], embedded: ServiceRss[], alg: string) {
  const ceiling = u.argon2Ceiling.perSecond;
  const share = (rps: number) => (rps / ceiling).toFixed(2);
  const login = u.login.result;
  const patch = "skipped" in u.patch ? undefined : u.patch.result;
  const idle = u.rss[0]?.mb;
  const afterScenarios = u.rss.filter((s) => s.when.startsWith("round"));
  const perRound = [...new Set(afterScenarios.map((s) => s.when.split(":")[0]))].map((r) => max(afterScenarios.filter((s) => s.when.startsWith(`${r}:`)).map((s) => s.mb)));
  const serviceMbs = services.filter((s) => s.process !== "launcher").map((s) => s.mb);
  const rows = [
    ["password login", `${login.requestsPerSecond.toFixed(1)}/s = ${share(login.requestsPerSecond)} of the ceiling (${ceiling.toFixed(1)}/s); closed-loop p99 ${login.latencyP99Ms.toFixed(0)} ms`, "≥ 0.90 of the ceiling; p99 < 100 ms at 80% load"],
    ["patch (verifies the password)", patch ? `${share(patch.requestsPerSecond)} of the ceiling` : "skipped", "≥ 0.90"],
    ["client_credentials", `${cc.ratio.toFixed(2)}× the peer (both ${alg}; rounds ${cc.roundRatios.join(", ")})`, "≥ 2.5×"],
    ["introspection", "not measured by this bench", "≥ 2×"],
    ["refresh rotation", `${u.refresh.result.requestsPerSecond.toFixed(0)}/s`, "keep ≥ 2,000/s"],
    ["memory, npm start on PG + Redis", `${mb(idle)} idle, ${mb(max(afterScenarios.map((s) => s.mb)))} peak after a scenario; per round ${perRound.map(mb).join(", ")}`, "≤ 150 MB idle, ≤ 200 MB after every scenario, flat"],
    ["memory, embedded npm start", embedded.map((e) => `${mb(e.mb)} (${e.process.replace("embedded, ", "")})`).join(", "), "≤ 250 MB"],
    ["memory per service (start:services)", `${Math.min(...serviceMbs.filter((x): x is number => x !== undefined))}–${max(serviceMbs)} MB (${services.map((s) => `${s.process} ${s.mb ?? "-"}`).join(", ")})`, "≤ 100 MB each"],
  ];
  console.log("\n| figure | this run | goal |\n|---|---|---|");
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
  console.log("");
}
