import { compareInterleaved, type Comparison, type RssSample } from "../lib/comparison.ts";
import type { LoadSettings } from "../lib/load.ts";
import { startGatehouse, startOidcProvider } from "../lib/targets.ts";
import { clientCredentials } from "./client-credentials.ts";
import { introspection } from "./introspection.ts";

const IDLE_SETTLE_MS = 3000;

export interface PeerComparisons {
  client_credentials?: Comparison;
  introspection?: Comparison;
  /** RSS (MB) of each server idle and after each of its runs. */
  rss: { gatehouse: RssSample[]; "oidc-provider": RssSample[] };
}

/**
 * `npm start` (PostgreSQL + Redis) and oidc-provider up together; each
 * chosen scenario measured on both in interleaved rounds.
 */
export async function peerComparisons(
  settings: LoadSettings,
  rounds: number,
  run: { clientCredentials: boolean; introspection: boolean },
): Promise<PeerComparisons> {
  const gh = await startGatehouse();
  const peer = await startOidcProvider().catch(async (err) => {
    await gh.stop();
    throw err;
  });
  try {
    await new Promise((r) => setTimeout(r, IDLE_SETTLE_MS));
    const out: PeerComparisons = {
      rss: {
        gatehouse: [{ when: "idle", mb: gh.child.rssMb() }],
        "oidc-provider": [{ when: "idle", mb: peer.child.rssMb() }],
      },
    };
    const keep = (c: Comparison) => {
      out.rss.gatehouse.push(...c.rss.gatehouse);
      out.rss["oidc-provider"].push(...c.rss["oidc-provider"]);
      return c;
    };
    if (run.clientCredentials)
      out.client_credentials = keep(await compareInterleaved(gh, peer, clientCredentials, settings, rounds));
    if (run.introspection)
      out.introspection = keep(await compareInterleaved(gh, peer, await introspection([gh, peer]), settings, rounds));
    return out;
  } finally {
    await peer.stop();
    await gh.stop();
  }
}
