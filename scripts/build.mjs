/* global URL, process, console */
// Builds what `npm start` runs, once: each step hashes its inputs and rebuilds
// only when they changed (the hash is kept in its output directory). Plain
// JavaScript so that it runs before anything is built.
//
//   node scripts/build.mjs [--force]
//
// A step is { name, inputs, outDir, run }: to add one (e.g. the console's
// Vite build), append it to STEPS. Tests and the typechecker keep using the sources.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const force = process.argv.includes("--force");

const STEPS = [
  {
    name: "server",
    // Every workspace package's sources and assets, the manifests and the lockfile.
    inputs: ["apps", "libs", "package.json", "package-lock.json", "scripts/build.mjs", "scripts/build-server.mjs"],
    outDir: "dist/server",
    run: async (outDir) => (await import("./build-server.mjs")).buildServer(root, outDir),
  },
];

const SKIP = new Set(["node_modules", "dist", "coverage", ".nx", "test"]);

function listFiles(path, out) {
  const full = join(root, path);
  if (!existsSync(full)) return out;
  if (statSync(full).isFile()) {
    out.push(path);
    return out;
  }
  for (const entry of readdirSync(full, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.endsWith(".test.ts")) continue;
    const child = join(path, entry.name);
    if (entry.isDirectory()) listFiles(child, out);
    else if (entry.isFile()) out.push(child);
  }
  return out;
}

function hashInputs(step) {
  // The build names a few files by absolute path (scripts/build-server.mjs): a moved checkout rebuilds.
  const hash = createHash("sha256").update(process.version).update(root);
  const files = step.inputs.flatMap((p) => listFiles(p, [])).sort();
  for (const f of files)
    hash
      .update(f)
      .update("\0")
      .update(readFileSync(join(root, f)))
      .update("\0");
  return hash.digest("hex");
}

for (const step of STEPS) {
  const outDir = join(root, step.outDir);
  const stamp = join(outDir, ".inputs-hash");
  const hash = hashInputs(step);
  if (!force && existsSync(stamp) && readFileSync(stamp, "utf8") === hash) continue;
  const started = Date.now();
  console.error(`gatehouse: building ${step.name} into ${relative(root, outDir)} (once per change of its sources)`);
  // Built beside the old output and swapped in, so that two starts at once
  // never run a half-written build.
  const tmp = `${outDir}.${process.pid}.tmp`;
  const old = `${outDir}.${process.pid}.old`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  try {
    await step.run(tmp);
    await writeFile(join(tmp, ".inputs-hash"), hash);
    if (existsSync(outDir)) await rename(outDir, old);
    await rename(tmp, outDir);
  } finally {
    await rm(tmp, { recursive: true, force: true });
    await rm(old, { recursive: true, force: true });
  }
  console.error(`gatehouse: built ${step.name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
