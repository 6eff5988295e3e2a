import { readFileSync } from "node:fs";
import { cpus } from "node:os";

const busyAndTotal = () =>
  cpus().reduce(
    (acc, c) => {
      const t = c.times;
      const total = t.user + t.nice + t.sys + t.idle + t.irq;
      return { busy: acc.busy + total - t.idle, total: acc.total + total };
    },
    { busy: 0, total: 0 },
  );

/**
 * Fraction (0..1) of the machine's CPU busy over `ms` while the bench itself
 * is idle: other work that would skew the comparison (tests running beside it).
 */
export async function backgroundLoad(ms = 1000): Promise<number> {
  const a = busyAndTotal();
  await new Promise((r) => setTimeout(r, ms));
  const b = busyAndTotal();
  return b.total === a.total ? 0 : (b.busy - a.busy) / (b.total - a.total);
}

/** Aggregate CPU ticks of /proc/stat (undefined where it is missing). */
function procStat(): { busy: number; steal: number; total: number } | undefined {
  try {
    // user nice system idle iowait irq softirq steal
    const f = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    return { busy: f[0]! + f[1]! + f[2]! + f[5]! + f[6]!, steal: f[7]!, total: f.reduce((a, b) => a + b, 0) };
  } catch {
    return undefined;
  }
}

/** Where the CPU went during a measured run, in cores (CPU seconds per second). */
export interface RunCpu {
  seconds: number;
  /** CPU seconds the server used over the run. */
  serverCpuSeconds: number | undefined;
  /** The server process, all its threads. */
  serverCores: number | undefined;
  /** This process: the load generator. */
  benchCores: number;
  /** The whole machine (server, bench, PostgreSQL, Redis and anything else), steal excluded. */
  machineCores: number | undefined;
  /** Share (0..1) of CPU time the hypervisor gave to other guests: above a few percent the figures measure the neighbours too. */
  steal: number | undefined;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Starts measuring; the function it returns ends the measurement. */
export function runMeter(readServerCpu: () => number | undefined = () => undefined): () => RunCpu {
  const t0 = performance.now();
  const server0 = readServerCpu();
  const bench0 = process.cpuUsage();
  const stat0 = procStat();
  return () => {
    const seconds = (performance.now() - t0) / 1000;
    const server1 = readServerCpu();
    const bench = process.cpuUsage(bench0);
    const stat1 = procStat();
    const ticks = stat0 && stat1 ? stat1.total - stat0.total : 0;
    const serverCpuSeconds = server0 === undefined || server1 === undefined ? undefined : round2(server1 - server0);
    return {
      seconds: round2(seconds),
      serverCpuSeconds,
      serverCores: serverCpuSeconds === undefined ? undefined : round2(serverCpuSeconds / seconds),
      benchCores: round2((bench.user + bench.system) / 1e6 / seconds),
      machineCores: ticks > 0 ? round2(((stat1!.busy - stat0!.busy) / ticks) * cpus().length) : undefined,
      steal: ticks > 0 ? round2((stat1!.steal - stat0!.steal) / ticks) : undefined,
    };
  };
}

const NOISY_STEAL = 0.05;

/** Warns when the hypervisor took a noticeable share of the CPU during a measurement. */
export function warnSteal(name: string, steal: number | undefined) {
  if (steal !== undefined && steal > NOISY_STEAL) {
    console.warn(
      `${name}: the hypervisor stole ${(steal * 100).toFixed(0)}% of the CPU time during the run: the figures are low`,
    );
  }
}
