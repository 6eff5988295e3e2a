import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import type { LoadSettings } from "./lib/load.ts";
import { printTable, writeJson, type Measured } from "./lib/report.ts";
import { measure, tokenRequest } from "./lib/scenario.ts";
import { startGatehouse, startOidcProvider, type Target } from "./lib/targets.ts";

// npm run bench: client_credentials throughput of `npm start` (PostgreSQL +
// Redis) through the gateway, against oidc-provider issuing JWT access tokens.
// Each server runs alone, one after the other; the load runs in this process.

const settings: LoadSettings = {
  seconds: Number(process.env.BENCH_SECONDS ?? 10),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 32),
};
const TARGET_RATIO = 2;
const form = { grant_type: "client_credentials", scope: "apps:read" };

async function run(start: () => Promise<Target>): Promise<Measured> {
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

const gatehouse = await run(startGatehouse);
const peer = await run(startOidcProvider);
const ratio = gatehouse.result.requestsPerSecond / peer.result.requestsPerSecond;

printTable("client_credentials (JWT access token)", [gatehouse, peer], ratio, settings);
await writeJson(fileURLToPath(new URL("./results/latest.json", import.meta.url)), {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  settings,
  scenarios: {
    client_credentials: { form, gatehouse, "oidc-provider": peer, ratio, target: TARGET_RATIO, met: ratio >= TARGET_RATIO },
  },
});

const failed = [gatehouse, peer].filter((m) => m.result.non2xx + m.result.errors + m.result.timeouts > 0);
for (const m of failed) console.error(`${m.name}: ${m.result.non2xx} non-2xx, ${m.result.errors} errors, ${m.result.timeouts} timeouts`, m.result.statusCodes);
if (ratio < TARGET_RATIO) console.error(`gatehouse is ${ratio.toFixed(2)}x the peer, below the ${TARGET_RATIO}x target`);
process.exitCode = failed.length > 0 ? 1 : 0;
