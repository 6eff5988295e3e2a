import { join } from "node:path";
import { sendOnce, runLoad, type LoadRequest } from "./lib/load.ts";
import { tokenRequest } from "./lib/scenario.ts";
import type { Target } from "./lib/targets.ts";
import { clientCredentialsForm } from "./scenarios/client-credentials.ts";

// A/B of two builds: `AB_BASE=/path/to/other/worktree npm run bench:ab`. Both
// servers (each worktree's own `npm start` on PostgreSQL + Redis) are up at
// once and measured alternately, one after the other, on client_credentials
// and introspection; the figure is the server's CPU µs per request (/proc, all
// its threads), the steadiest figure on a shared machine. AB_ROUNDS (6),
// AB_SECONDS (4), AB_CONNECTIONS (16), AB_ONLY=client_credentials|introspection.

const base = process.env.AB_BASE;
if (!base) throw new Error("AB_BASE: the other worktree (the build to compare against)");
const rounds = Number(process.env.AB_ROUNDS ?? 6);
const settings = {
  seconds: Number(process.env.AB_SECONDS ?? 4),
  connections: Number(process.env.AB_CONNECTIONS ?? 16),
};
const only = process.env.AB_ONLY;

type Start = () => Promise<Target>;
const startOf = async (root: string): Promise<Start> =>
  ((await import(join(root, "bench/lib/targets.ts"))) as { startGatehouse: Start }).startGatehouse;
const builds = [
  { name: "base", start: await startOf(base) },
  { name: "this", start: await startOf(join(import.meta.dirname, "..")) },
];

async function requests(t: Target): Promise<Record<string, LoadRequest>> {
  const token = await sendOnce(tokenRequest(t, clientCredentialsForm));
  const basic = Buffer.from(`${encodeURIComponent(t.clientId)}:${encodeURIComponent(t.clientSecret)}`).toString(
    "base64",
  );
  const all: Record<string, LoadRequest> = {
    client_credentials: tokenRequest(t, clientCredentialsForm),
    introspection: {
      url: `${t.baseUrl}${t.introspectPath}`,
      method: "POST",
      headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: String(token.access_token) }).toString(),
    },
  };
  return only ? { [only]: all[only]! } : all;
}

const targets: Target[] = [];
try {
  for (const b of builds) targets.push(await b.start());
  const reqs = await Promise.all(targets.map(requests));
  const cpu: Record<string, Record<string, number[]>> = {};
  for (let round = 1; round <= rounds; round++) {
    // Alternate which build goes first, so a trend in the machine's load hits both alike.
    const order = round % 2 ? [0, 1] : [1, 0];
    for (const scenario of Object.keys(reqs[0]!)) {
      for (const i of order) {
        const t = targets[i]!;
        const req = reqs[i]![scenario]!;
        await runLoad(req, { ...settings, seconds: 1 });
        const c0 = t.child.cpuSeconds()!;
        const r = await runLoad(req, settings);
        const us = Math.round(((t.child.cpuSeconds()! - c0) * 1e6) / r.requests);
        if (r.non2xx + r.errors + r.timeouts > 0) throw new Error(`${builds[i]!.name} ${scenario}: failures`);
        ((cpu[scenario] ??= {})[builds[i]!.name] ??= []).push(us);
        console.log(
          `round ${round} ${scenario} ${builds[i]!.name}: ${us} µs/req (${r.requestsPerSecond.toFixed(0)}/s)`,
        );
      }
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const [scenario, by] of Object.entries(cpu)) {
    const b = by.base!;
    const t = by.this!;
    console.log(
      `${scenario}: base ${median(b)} µs (${b.join(", ")}), this ${median(t)} µs (${t.join(", ")}); this/base ${(median(t) / median(b)).toFixed(2)}`,
    );
  }
} finally {
  for (const t of targets) await t.stop();
}
