import type { LoadRequest, LoadSettings } from "./load.ts";
import type { Measured } from "./report.ts";
import { measure } from "./scenario.ts";
import type { Target } from "./targets.ts";

export interface RssSample {
  when: string;
  mb: number | undefined;
}

/** One scenario measured on Gatehouse and on the peer in interleaved rounds. */
export interface Comparison {
  /** The round with the median ratio (each round measures both servers, one after the other). */
  gatehouse: Measured;
  "oidc-provider": Measured;
  /** Median of the per-round ratios. */
  ratio: number;
  roundRatios: number[];
  /** Per round: the peer's server CPU per request over Gatehouse's (requests per server CPU-second, Gatehouse over the peer). */
  roundCpuRatios: (number | undefined)[];
  /** Median of roundCpuRatios (undefined where /proc is missing). */
  cpuRatio: number | undefined;
  target: number;
  met: boolean;
  /** RSS (MB) of each server after each of its runs. */
  rss: { gatehouse: RssSample[]; "oidc-provider": RssSample[] };
}

export interface ComparedScenario {
  name: string;
  /** Gatehouse must reach this many times the peer's requests per second. */
  target: number;
  request(t: Target): LoadRequest;
  /** Throws on a wrong sample answer; returns the token's alg for the report. */
  check(t: Target, sample: Record<string, unknown>): string;
}

async function measureOrReport(t: Target, s: ComparedScenario, settings: LoadSettings): Promise<Measured> {
  try {
    return await measure(t, s.request(t), settings, s.check);
  } catch (err) {
    console.error(`${t.name} output:\n${t.child.output()}`);
    throw err;
  }
}

/**
 * Both servers up, measured alternately in `rounds` interleaved rounds with
 * autocannon (machine noise hits both alike); the ratio is the median of the
 * rounds' ratios.
 */
export async function compareInterleaved(
  gh: Target,
  peer: Target,
  s: ComparedScenario,
  settings: LoadSettings,
  rounds: number,
): Promise<Comparison> {
  const rss: Comparison["rss"] = { gatehouse: [], "oidc-provider": [] };
  const runs: { gatehouse: Measured; peer: Measured; ratio: number }[] = [];
  for (let round = 1; round <= rounds; round++) {
    console.log(`${s.name}: round ${round} of ${rounds}`);
    const g = await measureOrReport(gh, s, settings);
    rss.gatehouse.push({ when: `${s.name}, after round ${round}`, mb: gh.child.rssMb() });
    const p = await measureOrReport(peer, s, settings);
    rss["oidc-provider"].push({ when: `${s.name}, after round ${round}`, mb: peer.child.rssMb() });
    runs.push({
      gatehouse: g,
      peer: p,
      ratio: Math.round((g.result.requestsPerSecond / p.result.requestsPerSecond) * 100) / 100,
    });
  }
  const cpuRatios = runs.map(({ gatehouse: g, peer: p }) =>
    g.cpuMicrosPerRequest && p.cpuMicrosPerRequest
      ? Math.round((p.cpuMicrosPerRequest / g.cpuMicrosPerRequest) * 100) / 100
      : undefined,
  );
  const known = cpuRatios.filter((r): r is number => r !== undefined).sort((a, b) => a - b);
  const median = [...runs].sort((a, b) => a.ratio - b.ratio)[Math.floor(runs.length / 2)]!;
  return {
    gatehouse: median.gatehouse,
    "oidc-provider": median.peer,
    ratio: median.ratio,
    roundRatios: runs.map((r) => r.ratio),
    roundCpuRatios: cpuRatios,
    cpuRatio: known.length ? known[Math.floor(known.length / 2)] : undefined,
    target: s.target,
    met: median.ratio >= s.target,
    rss,
  };
}

/** Failed requests of one server's run (non-2xx, errors, timeouts). */
export const failedRequests = (m: Measured): number => m.result.non2xx + m.result.errors + m.result.timeouts;
