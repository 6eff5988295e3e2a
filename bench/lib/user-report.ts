import type { LoadSettings } from "./load.ts";
import { cores } from "./report.ts";
import type { LoopMeasured, Skipped } from "./user-scenario.ts";
import type { Argon2Ceiling } from "./argon2-ceiling.ts";
import { formatThreads } from "./threads.ts";

export interface UserRow {
  measured: LoopMeasured | Skipped;
  /** Share of the argon2id ceiling, for the scenarios that verify a password per request. */
  percentOfCeiling?: number;
  /** The target share, where there is one. */
  targetPercent?: number;
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** The user scenarios' table on stdout. */
export function printUserTable(rows: UserRow[], ceiling: Argon2Ceiling, settings: LoadSettings) {
  const head = [
    "scenario",
    "req/s",
    "p50 ms",
    "p99 ms",
    "CPU µs/req",
    "cores srv/all",
    "% ceiling",
    "200",
    "other",
    "errors",
  ];
  const body = rows.map(({ measured: m, percentOfCeiling, targetPercent }) => {
    if ("skipped" in m) return [m.name, "skipped", "", "", "", "", "", "", "", ""];
    const r = m.result;
    const share =
      percentOfCeiling === undefined
        ? "-"
        : `${fmt(percentOfCeiling)}${targetPercent === undefined ? "" : ` (≥${targetPercent})`}`;
    return [
      m.name,
      fmt(r.requestsPerSecond),
      fmt(r.latencyP50Ms),
      fmt(r.latencyP99Ms),
      m.cpuMicrosPerRequest === undefined ? "-" : fmt(m.cpuMicrosPerRequest, 0),
      cores(m.cpu),
      share,
      String(r.statusCodes[r.expectedStatus] ?? 0),
      String(r.requests - r.errors - r.timeouts - (r.statusCodes[r.expectedStatus] ?? 0)),
      String(r.errors + r.timeouts),
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join("  ")
      .trimEnd();
  console.log(`\nuser scenarios on gatehouse (${settings.seconds} s, ${settings.connections} connections)`);
  console.log(
    `argon2id ceiling = ${ceiling.cores} verifier processes (one per core) for ${ceiling.seconds} s at once = ${fmt(ceiling.perSecond)} password checks/s` +
      ` (${ceiling.processRates.map((r) => fmt(r)).join(" + ")}, ${fmt(ceiling.cpuShare * 100, 0)}% of their cores' time, ${fmt(ceiling.cpuMsPerVerify, 2)} ms of their CPU per verify; m=${ceiling.params.memoryCost} KiB, t=${ceiling.params.timeCost}, p=${ceiling.params.parallelism});` +
      ` one verify alone in the bench process: ${fmt(ceiling.verifyMedianMs, 2)} ms (${ceiling.cores} cores ÷ it = ${fmt((ceiling.cores * 1000) / ceiling.verifyMedianMs)}/s)`,
  );
  console.log(line(head));
  for (const b of body) console.log(line(b));
  for (const { measured: m } of rows) if ("skipped" in m) console.log(`${m.name}: skipped, ${m.skipped}`);
  for (const { measured: m } of rows)
    if (!("skipped" in m) && m.threads)
      console.log(`${m.name}: server CPU per request by thread: ${formatThreads(m.threads)}`);
  console.log("");
}
