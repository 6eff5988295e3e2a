import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parseCircular, parseDependencyTree, type Dependency, type DependencyTree } from "dpdm";

// The repository's import graph, read by dpdm (TypeScript's own parser and a
// resolver of relative and package imports), and the three views of it that
// must stay acyclic: the files of one package, the top-level folders of one
// app's src (so no module imports back up into a folder that imports it),
// and the packages. Type-only and dynamic imports count: both tie modules.

/** Every package with sources: `apps/<name>` and `libs/<name>`, relative to the repository root. */
export function packagesOf(root: string): string[] {
  return ["apps", "libs"]
    .flatMap((group) => readdirSync(join(root, group)).map((name) => `${group}/${name}`))
    .filter((pkg) => existsSync(join(root, pkg, "src")))
    .sort();
}

/** The import graph of every package's src, keyed by path relative to the root. */
export function importGraph(root: string): Promise<DependencyTree> {
  return parseDependencyTree(["apps/*/src/**/*.{ts,tsx}", "libs/*/src/**/*.{ts,tsx}"], {
    cwd: root,
    context: root,
    transform: false,
    skipDynamicImports: false,
  });
}

const isTest = (file: string) => /\.test\.tsx?$/.test(file);

/** Relative imports the resolver could not follow: each would be an edge missing from the graph. */
export function unresolvedImports(tree: DependencyTree): string[] {
  return Object.values(tree)
    .flatMap((deps) => deps ?? [])
    .filter((d) => d.request.startsWith(".") && !d.id)
    .map((d) => `${d.issuer}: ${d.request}`);
}

/**
 * The graph with each file renamed by `nodeOf` (undefined leaves a file out),
 * edges inside one node dropped; `evidence` keeps the file imports behind
 * each edge between nodes ("a -> b" -> ["file -> file", ...]).
 */
function collapse(tree: DependencyTree, nodeOf: (file: string) => string | undefined) {
  const edges = new Map<string, Dependency[]>();
  const evidence = new Map<string, string[]>();
  for (const [file, deps] of Object.entries(tree)) {
    const from = nodeOf(file);
    if (from === undefined) continue;
    const out = edges.get(from) ?? [];
    edges.set(from, out);
    for (const d of deps ?? []) {
      const to = d.id === null ? undefined : nodeOf(d.id);
      if (to === undefined || to === from) continue;
      const key = `${from} -> ${to}`;
      if (!evidence.has(key)) out.push({ ...d, issuer: from, id: to });
      evidence.set(key, [...new Set([...(evidence.get(key) ?? []), `${file} -> ${d.id}`])]);
    }
  }
  return { collapsed: Object.fromEntries(edges) as DependencyTree, evidence };
}

/** One line per cycle: its nodes in order, back to the first. */
const cycleLines = (cycles: string[][]) => [...new Set(cycles.map((c) => [...c, c[0]].join(" -> ")))];

/** The import cycles between the files of `pkg` (tests included: they are files of the package too). */
export function fileCycles(tree: DependencyTree, pkg: string): string[] {
  const src = `${pkg}/src/`;
  const { collapsed } = collapse(tree, (file) => (file.startsWith(src) ? file.slice(src.length) : undefined));
  return cycleLines(parseCircular(collapsed));
}

/**
 * The cycles between the top-level folders of an app's src (a file at the
 * top level counts as a folder of its own), each followed by the file
 * imports that make its arrows. Tests are left out: they may import from
 * anywhere in their package.
 */
export function folderCycles(tree: DependencyTree, app: string): string[] {
  const src = `${app}/src/`;
  const { collapsed, evidence } = collapse(tree, (file) => {
    if (!file.startsWith(src) || isTest(file)) return undefined;
    const [top, ...rest] = file.slice(src.length).split("/");
    return rest.length ? `${top}/` : top;
  });
  return parseCircular(collapsed).map((cycle) => {
    const arrows = cycle.map((from, i) => `${from} -> ${cycle[(i + 1) % cycle.length]}`);
    const files = arrows.flatMap((arrow) => evidence.get(arrow) ?? []).map((f) => `\n    ${f.replaceAll(src, "")}`);
    return `${cycleLines([cycle])[0]}${files.join("")}`;
  });
}

/** The cycles between packages (a package's tests left out: they may use any library). */
export function packageCycles(tree: DependencyTree, packages: readonly string[]): string[] {
  const { collapsed } = collapse(tree, (file) =>
    isTest(file) ? undefined : packages.find((pkg) => file.startsWith(`${pkg}/src/`)),
  );
  return cycleLines(parseCircular(collapsed));
}
