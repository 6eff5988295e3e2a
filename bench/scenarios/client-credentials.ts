import type { LoadSettings } from "../lib/load.ts";
import type { Measured } from "../lib/report.ts";
import { measure, tokenRequest } from "../lib/scenario.ts";
import { startGatehouse, startOidcProvider, type Target } from "../lib/targets.ts";

/** Gatehouse must issue client_credentials tokens at least this many times as fast as oidc-provider. */
export const CLIENT_CREDENTIALS_TARGET_RATIO = 2.5;
const form = { grant_type: "client_credentials", scope: "apps:read" };

export interface ClientCredentialsComparison {
  form: Record<string, string>;
  /** The round with the median ratio (each round measures both servers, one after the other). */
  gatehouse: Measured;
  "oidc-provider": Measured;
  /** Median of the per-round ratios. */
  ratio: number;
  roundRatios: number[];
  target: number;
  met: boolean;
  /** RSS (MB) of each server idle and after each of its runs. */
  rss: { gatehouse: RssSample[]; "oidc-provider": RssSample[] };
}

export interface RssSample {
  when: string;
  mb: number | undefined;
}

const IDLE_SETTLE_MS = 3000;

async function measureOrReport(target: Target, settings: LoadSettings): Promise<Measured> {
  try {
    return await measure(target, tokenRequest(target, form), settings);
  } catch (err) {
    console.error(`${target.name} output:\n${target.child.output()}`);
    throw err;
  }
}

/**
 * client_credentials throughput of `npm start` (PostgreSQL + Redis) through
 * the gateway against oidc-provider issuing JWT access tokens signed with the
 * same algorithm, with autocannon: both servers up, measured alternately in
 * `rounds` interleaved rounds (machine noise hits both alike); the ratio is
 * the median of the rounds' ratios.
 */
export async function clientCredentialsComparison(settings: LoadSettings, rounds: number): Promise<ClientCredentialsComparison> {
  const gh = await startGatehouse();
  const peer = await startOidcProvider().catch(async (err) => {
    await gh.stop();
    throw err;
  });
  try {
    await new Promise((r) => setTimeout(r, IDLE_SETTLE_MS));
    const rss = { gatehouse: [{ when: "idle", mb: gh.child.rssMb() }], "oidc-provider": [{ when: "idle", mb: peer.child.rssMb() }] };
    const runs: { gatehouse: Measured; peer: Measured; ratio: number }[] = [];
    for (let round = 1; round <= rounds; round++) {
      console.log(`client_credentials: round ${round} of ${rounds}`);
      const g = await measureOrReport(gh, settings);
      rss.gatehouse.push({ when: `after round ${round}`, mb: gh.child.rssMb() });
      const p = await measureOrReport(peer, settings);
      rss["oidc-provider"].push({ when: `after round ${round}`, mb: peer.child.rssMb() });
      runs.push({ gatehouse: g, peer: p, ratio: Math.round((g.result.requestsPerSecond / p.result.requestsPerSecond) * 100) / 100 });
    }
    const median = [...runs].sort((a, b) => a.ratio - b.ratio)[Math.floor(runs.length / 2)]!;
    return {
      form,
      gatehouse: median.gatehouse,
      "oidc-provider": median.peer,
      ratio: median.ratio,
      roundRatios: runs.map((r) => r.ratio),
      target: CLIENT_CREDENTIALS_TARGET_RATIO,
      met: median.ratio >= CLIENT_CREDENTIALS_TARGET_RATIO,
      rss,
    };
  } finally {
    await peer.stop();
    await gh.stop();
  }
}

/** Failed requests of one server's run (non-2xx, errors, timeouts). */
export const failedRequests = (m: Measured): number => m.result.non2xx + m.result.errors + m.result.timeouts;
