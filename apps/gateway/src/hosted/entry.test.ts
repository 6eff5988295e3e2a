import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The hosted pages' boundary: the rest of the gateway reaches them only
// through their entry (index.ts) and names them by URL (paths.ts); the JSON
// answers of a login import no page at all. Inside, authorize/ is the top:
// the families below it reach its tables through the view, never by import.

const HOSTED = dirname(fileURLToPath(import.meta.url));
const SRC = resolve(HOSTED, "..");
const IMPORT = /(?:import|export)\s[^;]*?from\s+"(\.{1,2}\/[^"]+)"|import\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g;
const PUBLIC = ["hosted/index.ts", "hosted/paths.ts"];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** The modules of hosted/ each module imports, by path under src/. */
function hostedImports(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of sources(SRC)) {
    const targets = [...readFileSync(file, "utf8").matchAll(IMPORT)]
      .map((m) => relative(SRC, resolve(dirname(file), m[1] ?? m[2]!)))
      .filter((t) => t.startsWith("hosted/"));
    found.set(relative(SRC, file), targets);
  }
  return found;
}

describe("the hosted pages' entry", () => {
  const imports = hostedImports();

  it("reads the imports (the checks below would pass on none)", () => {
    expect(imports.get("routes/oauth/authorize.ts")).toEqual(PUBLIC);
  });

  it("is the only way in: outside hosted/, modules import its index.ts and paths.ts alone", () => {
    const inside = [...imports]
      .filter(([file]) => !file.startsWith("hosted/"))
      .flatMap(([file, targets]) => targets.filter((t) => !PUBLIC.includes(t)).map((t) => `${file} -> ${t}`));
    expect(inside).toEqual([]);
  });

  it("leaves the JSON answers of a login free of pages: they name them by URL", () => {
    expect(imports.get("routes/activityid/login-outcomes.ts")).toEqual(["hosted/paths.ts"]);
  });

  it("keeps authorize/ on top: only the entry imports it", () => {
    expect(imports.get("hosted/authorize/hosted-login.ts")).toContain("hosted/authorize/outcome-pages.ts");
    const up = [...imports]
      .filter(
        ([file]) => file.startsWith("hosted/") && !file.startsWith("hosted/authorize/") && file !== "hosted/index.ts",
      )
      .flatMap(([file, targets]) =>
        targets.filter((t) => t.startsWith("hosted/authorize/")).map((t) => `${file} -> ${t}`),
      );
    expect(up).toEqual([]);
  });
});
