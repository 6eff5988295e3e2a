import { readFile } from "node:fs/promises";
import { relative } from "node:path";
import { parseArgs } from "node:util";

// Summarises a V8 .cpuprofile (from `BENCH_CPU_PROF=dir npm run bench`):
// self and inclusive time by function, and self time by file/package.
// usage: node <flags> bench/profile-summary.ts file.cpuprofile [--top 25] [--callers fnName]
//        [--last 10] (only the last N seconds of the profile: the measured run, not start-up and warm-up)

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: "string", default: "25" }, callers: { type: "string" }, last: { type: "string" } },
});
const file = positionals[0];
if (!file) throw new Error("usage: profile-summary.ts file.cpuprofile [--top N] [--callers fnName] [--last seconds]");
const top = Number(opts.top);
const callersOf = opts.callers;
const profile = JSON.parse(await readFile(file, "utf8")) as Profile;
if (opts.last) {
  // Keep the samples of the last N seconds (timeDeltas are microseconds).
  let keepFrom = profile.samples.length;
  for (let t = 0; keepFrom > 0 && t < Number(opts.last) * 1e6;) t += profile.timeDeltas[--keepFrom] ?? 0;
  profile.samples = profile.samples.slice(keepFrom);
  profile.timeDeltas = profile.timeDeltas.slice(keepFrom);
}

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const place = (url: string) => {
  if (!url) return "(native)";
  const path = url.replace(/^file:\/\//, "");
  const nm = path.lastIndexOf("node_modules/");
  if (nm >= 0) return path.slice(nm + "node_modules/".length);
  return path.startsWith("/") ? relative(process.cwd(), path) : path;
};
const fnKey = (n: ProfileNode) =>
  `${n.callFrame.functionName || "(anonymous)"} ${place(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
const pkgKey = (n: ProfileNode) => {
  const p = place(n.callFrame.url);
  if (p.startsWith("(") || p.startsWith("node:"))
    return n.callFrame.functionName.startsWith("(") ? n.callFrame.functionName : p;
  const parts = p.split("/");
  return p.includes(".ts") || !p.includes("/") ? p : parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
};

const self = new Map<string, number>();
const incl = new Map<string, number>();
const pkg = new Map<string, number>();
let total = 0;
const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  total += dt;
  const leaf = byId.get(id)!;
  add(self, fnKey(leaf), dt);
  add(pkg, pkgKey(leaf), dt);
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const k = fnKey(byId.get(cur)!);
    if (seen.has(k)) continue;
    seen.add(k);
    add(incl, k, dt);
  }
});

const show = (title: string, m: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((100 * v) / total).toFixed(1).padStart(6)}%  ${(v / 1000).toFixed(0).padStart(7)} ms  ${k}`);
  }
};
// With a function name: the call chains (4 frames up) in which that function spends its time.
const chains = new Map<string, number>();
if (callersOf) {
  profile.samples.forEach((id, i) => {
    const frames: string[] = [];
    let hit = false;
    for (let cur: number | undefined = id; cur !== undefined && frames.length < 5; cur = parent.get(cur)) {
      const n = byId.get(cur)!;
      if (!hit && n.callFrame.functionName !== callersOf) continue;
      hit = true;
      frames.push(fnKey(n));
    }
    if (hit) add(chains, frames.join("\n           <- "), profile.timeDeltas[i] ?? 0);
  });
}

console.log(`${file}: ${(total / 1e6).toFixed(2)} s sampled`);
show("self time by file/package", pkg);
show("self time by function", self);
show("inclusive time by function", incl);
if (callersOf) show(`call chains of ${callersOf}`, chains);
