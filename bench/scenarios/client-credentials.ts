import type { LoadSettings } from "../lib/load.ts";
import type { Measured } from "../lib/report.ts";
import { measure, tokenRequest } from "../lib/scenario.ts";
import { startGatehouse, startOidcProvider, type Target } from "../lib/targets.ts";

/** Gatehouse must issue client_credentials tokens at least this many times as fast as oidc-provider. */
export const CLIENT_CREDENTIALS_TARGET_RATIO = 2;
const form = { grant_type: "client_credentials", scope: "apps:read" };

export interface ClientCredentialsComparison {
  form: Record<string, string>;
  gatehouse: Measured;
  "oidc-provider": Measured;
  ratio: number;
  target: number;
  met: boolean;
}

async function run(start: () => Promise<Target>, settings: LoadSettings): Promise<Measured> {
  const target = await start();
  try {
    return await measure(target, tokenRequest(target, form), settings);
  } catch (err) {
    console.error(`${target.name} output:\n${target.child.output()}`);
    throw err;
  } finally {
    await target.stop();
  }
}

/**
 * client_credentials throughput of `npm start` (PostgreSQL + Redis) through
 * the gateway against oidc-provider issuing JWT access tokens, with
 * autocannon. Each server runs alone, one after the other.
 */
export async function clientCredentialsComparison(settings: LoadSettings): Promise<ClientCredentialsComparison> {
  const gatehouse = await run(startGatehouse, settings);
  const peer = await run(startOidcProvider, settings);
  const ratio = Math.round((gatehouse.result.requestsPerSecond / peer.result.requestsPerSecond) * 100) / 100;
  return { form, gatehouse, "oidc-provider": peer, ratio, target: CLIENT_CREDENTIALS_TARGET_RATIO, met: ratio >= CLIENT_CREDENTIALS_TARGET_RATIO };
}

/** Failed requests of one server's run (non-2xx, errors, timeouts). */
export const failedRequests = (m: Measured): number => m.result.non2xx + m.result.errors + m.result.timeouts;
