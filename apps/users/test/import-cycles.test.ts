import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The users service's modules form no import cycle (type-only imports
// included): the RPC adapters depend on the login flow and the domain
// modules, never the other way round.

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../src");
const IMPORT = /(?:import|export)\s[^;]*?from\s+"(\.{1,2}\/[^"]+)"|import\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** Relative imports of every module, by absolute path. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(SRC)) {
    const targets = [...readFileSync(file, "utf8").matchAll(IMPORT)].map((m) => resolve(dirname(file), m[1] ?? m[2]!));
    graph.set(file, targets);
  }
  return graph;
}

/** The first cycle found by depth-first search, as the list of files around it. */
function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === "done") return undefined;
    if (state.get(node) === "open") return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(node, "done");
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}

describe("apps/users imports", () => {
  it("reads the import graph (the check below would pass on an empty one)", () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(40);
    expect(graph.get(join(SRC, "users-service.ts"))).toContain(join(SRC, "login/flow.ts"));
    expect(
      findCycle(
        new Map([
          ["a", ["b"]],
          ["b", ["a"]],
        ]),
      ),
    ).toEqual(["a", "b", "a"]);
  });

  it("has no import cycle", () => {
    const cycle = findCycle(importGraph());
    expect(cycle?.map((f) => f.slice(SRC.length + 1))).toBeUndefined();
  });
});
