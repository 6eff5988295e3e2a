import type { Dependency, DependencyTree } from "dpdm";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { fileCycles, folderCycles, importGraph, packageCycles, packagesOf, unresolvedImports } from "./import-graph.ts";

// No import cycles: not between the files of any package (apps/*/src,
// libs/*/src, the console's included), not between the top-level folders of
// an app's src (shared pieces live below the folders that use them), not
// between packages. A failure names each cycle and, for folders, the file
// imports that make it: move the shared piece down, do not hide the import.

/**
 * Packages whose check is pending while their cycles are being removed
 * (issue 23). THIS LIST MUST BE EMPTY: it only shrinks. A package listed
 * here must still have a cycle, so the day it has none this test fails
 * until it leaves the list (and is checked like every other one).
 */
const PENDING: readonly string[] = [];

const root = fileURLToPath(new URL("../../../", import.meta.url));
const packages = packagesOf(root);
const apps = packages.filter((pkg) => pkg.startsWith("apps/"));
const checked = (list: string[]) => list.filter((pkg) => !PENDING.includes(pkg));
let tree: DependencyTree;

beforeAll(async () => {
  tree = await importGraph(root);
}, 300_000);

describe("import cycles", () => {
  it("reads every package, the console included, and follows every relative import", () => {
    expect(packages).toEqual(expect.arrayContaining(["apps/auth", "apps/console", "libs/kv"]));
    for (const pkg of PENDING) expect(packages, `${pkg} in PENDING is not a package`).toContain(pkg);
    expect(Object.keys(tree).filter((f) => f.startsWith("apps/console/src/")).length).toBeGreaterThan(10);
    expect(unresolvedImports(tree)).toEqual([]);
  });

  it.each(checked(packages))("%s: no cycle between its files", (pkg) => {
    expect(fileCycles(tree, pkg), `import cycles between files of ${pkg}/src`).toEqual([]);
  });

  it.each(checked(apps))("%s: no cycle between the top-level folders of its src", (app) => {
    expect(folderCycles(tree, app), `import cycles between folders of ${app}/src`).toEqual([]);
  });

  it("no cycle between packages", () => {
    expect(packageCycles(tree, packages)).toEqual([]);
  });

  it.each(PENDING)("%s is still pending: it has cycles left (else remove it from PENDING)", (pkg) => {
    const left = [...fileCycles(tree, pkg), ...(apps.includes(pkg) ? folderCycles(tree, pkg) : [])];
    expect(left.length, `${pkg} has no import cycle any more: remove it from PENDING in this file`).toBeGreaterThan(0);
  });
});

describe("the cycle checks find what they look for", () => {
  // A small graph with one file cycle (a/x <-> a/y) and one folder cycle (a/ -> b/ -> a/ through different files).
  const edge = (issuer: string, id: string): Dependency => ({
    issuer,
    request: id,
    kind: "StaticImport" as Dependency["kind"],
    id,
  });
  const src = (file: string) => `apps/demo/src/${file}`;
  const sample: DependencyTree = {
    [src("a/x.ts")]: [edge(src("a/x.ts"), src("a/y.ts")), edge(src("a/x.ts"), src("b/z.ts"))],
    [src("a/y.ts")]: [edge(src("a/y.ts"), src("a/x.ts"))],
    [src("b/z.ts")]: [edge(src("b/z.ts"), src("a/w.ts")), edge(src("b/z.ts"), "libs/lib/src/index.ts")],
    [src("a/w.ts")]: [],
    [src("b/z.test.ts")]: [edge(src("b/z.test.ts"), src("a/x.ts"))],
    ["libs/lib/src/index.ts"]: [edge("libs/lib/src/index.ts", src("main.ts"))],
    [src("main.ts")]: [],
  };

  it("names a cycle between files", () => {
    expect(fileCycles(sample, "apps/demo")).toEqual(["a/x.ts -> a/y.ts -> a/x.ts"]);
  });

  it("names a cycle between folders with the imports that make it, tests left out", () => {
    expect(folderCycles(sample, "apps/demo")).toEqual(["a/ -> b/ -> a/\n    a/x.ts -> b/z.ts\n    b/z.ts -> a/w.ts"]);
  });

  it("names a cycle between packages", () => {
    expect(packageCycles(sample, ["apps/demo", "libs/lib"])).toEqual(["apps/demo -> libs/lib -> apps/demo"]);
  });
});
