import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { LoadResult, LoadSettings } from "./load.ts";
import type { RunCpu } from "./machine.ts";

export interface Measured {
  name: string;
  tokenAlg: string;
  result: LoadResult;
  /** Server CPU time (all its threads) per request during the measured run. */
  cpuMicrosPerRequest: number | undefined;
  /** Busy share of the machine's CPU just before the run, the server idle (noise indicator). */
  backgroundLoad: number;
  /** Where the CPU went during the measured run. */
  cpu: RunCpu;
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** Cores the server used / cores the whole machine was busy, during the run. */
export const cores = (c: RunCpu) =>
  `${c.serverCores === undefined ? "-" : fmt(c.serverCores, 2)}/${c.machineCores === undefined ? "-" : fmt(c.machineCores, 2)}`;

/** The comparison table on stdout. */
export function printTable(title: string, rows: Measured[], ratio: number, settings: LoadSettings) {
  const head = ["server", "req/s", "p50 ms", "p99 ms", "CPU µs/req", "cores srv/all", "2xx", "non-2xx", "errors"];
  const body = rows.map((r) => [
    r.name,
    fmt(r.result.requestsPerSecond),
    fmt(r.result.latencyP50Ms),
    fmt(r.result.latencyP99Ms),
    r.cpuMicrosPerRequest === undefined ? "-" : fmt(r.cpuMicrosPerRequest, 0),
    cores(r.cpu),
    String(r.result.ok2xx),
    String(r.result.non2xx),
    String(r.result.errors + r.result.timeouts),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(`\n${title} (${settings.seconds} s, ${settings.connections} connections)`);
  console.log(line(head));
  for (const b of body) console.log(line(b));
  console.log(`ratio = ${rows[0]?.name} / ${rows[1]?.name} = ${fmt(ratio, 2)}\n`);
}

export async function writeJson(path: string, data: unknown) {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(data, null, 2)}\n`);
}
